// Workers created in a loop: any number of them run. The finite-state projection makes them a
// class with no thread slots, so an exploration of the slots alone would never run a worker
// and would "prove" the assertion, which fails as soon as two workers run.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int c = 0;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    c = c + 1;
    assert(c <= 1); // expect: violated
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, worker, 0);
    return 0;
}
