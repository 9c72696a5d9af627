// The twin of input_count_bug.c: the number of workers is an input between 12 and 30, and a
// checker created before them all claims no more workers finish than were created, which
// holds in every interleaving. No search may report it violated.
#include <pthread.h>
#include <assert.h>

extern unsigned __VERIFIER_nondet_uint(void);

unsigned done, n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    done = done + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *checker(void *arg) {
    pthread_mutex_lock(&m);
    assert(done <= n); // expect: holds
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t c, w[30];
    n = __VERIFIER_nondet_uint();
    if (n < 12 || n > 30)
        return 0;
    pthread_create(&c, 0, checker, 0);
    for (unsigned i = 0; i < n; i++)
        pthread_create(&w[i], 0, worker, 0);
    return 0;
}
// PARAM: --search-time 2
