/* Failing twin of tests/programs/coarsen/atomic_function.c: here the acquire is not atomic, and
   two workers may both pass the test of m. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern void assume_abort_if_not(int);
extern int __VERIFIER_nondet_int(void);
int m = 0, busy = 0;
void acquire(void) { assume_abort_if_not(m == 0); m = 1; }
void release(void) { m = 0; }
void *worker(void *arg) {
    acquire();
    busy = 1;
    __VERIFIER_assert(busy == 1); // expect: violated
    busy = 0;
    release();
    return 0;
}
int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) pthread_create(&t, 0, worker, 0);
    return 0;
}
