/* A __VERIFIER_atomic_ function runs atomically: a lock built from it excludes. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern void assume_abort_if_not(int);
extern int __VERIFIER_nondet_int(void);
int m = 0, busy = 0;
void __VERIFIER_atomic_acquire(void) { assume_abort_if_not(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { m = 0; }
void *worker(void *arg) {
    __VERIFIER_atomic_acquire();
    busy = 1;
    __VERIFIER_assert(busy == 1); // expect: unknown
    busy = 0;
    __VERIFIER_atomic_release();
    __VERIFIER_assert(busy <= 1); // expect: safe
    return 0;
}
int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) pthread_create(&t, 0, worker, 0);
    return 0;
}
// PARAM: --engines coarsen
