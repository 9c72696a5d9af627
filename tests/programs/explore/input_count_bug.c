// The number of workers is an input between 12 and 30, and a checker created before them all
// claims it always runs before the last one is done. It does not: the checker can run last.
// With the inputs 0 and 1 the program stops at once, and the depth-first order drowns in the
// subsets of finished workers; a sampled run with an input from the program's own constants
// and the checker at the lowest priority reaches the failure.
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
    assert(done < n); // expect: violated [explore]
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
