#include <pthread.h>
#include <assert.h>

// lock_count_two.c with the threads created in a loop of unknown bound: the count reaches 3
// when three threads run, so no proof may claim every number of threads.
extern int __VERIFIER_nondet_int(void);
int lck = 0, count = 0;

void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lck == 0); lck = 1; }
void __VERIFIER_atomic_release(void) { lck = 0; }

void *worker(void *arg) {
    __VERIFIER_atomic_acquire();
    count = count + 1;
    assert(count < 3); // expect: fails
    __VERIFIER_atomic_release();
    return 0;
}

int main(void) {
    pthread_t t;
    int n = __VERIFIER_nondet_int();
    for (int i = 0; i < n; i++) pthread_create(&t, 0, worker, 0);
    return 0;
}
