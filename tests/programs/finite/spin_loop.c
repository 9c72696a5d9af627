#include <pthread.h>
#include <assert.h>

// Figure 3 of the paper with threads created in a loop of unknown bound: a test-and-set spin
// lock around two critical sections, a ghost counter of the threads inside. Mutual exclusion
// holds for every number of threads.
extern int __VERIFIER_nondet_int(void);
int lck = 0, inside = 0;

void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lck == 0); lck = 1; }
void __VERIFIER_atomic_release(void) { lck = 0; }

void *worker(void *arg) {
    for (int r = 0; r < 2; r++) {
        __VERIFIER_atomic_acquire();
        inside = inside + 1;
        assert(inside == 1); // expect: holds
        inside = inside - 1;
        __VERIFIER_atomic_release();
    }
    return 0;
}

int main(void) {
    pthread_t t;
    int n = __VERIFIER_nondet_int();
    for (int i = 0; i < n; i++) pthread_create(&t, 0, worker, 0);
    return 0;
}
