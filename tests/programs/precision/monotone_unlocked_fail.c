/* Failing twin of monotone_tas.c: thr2 increments value without the lock, from a value it may
   have read before others' increments, so it can move value back below a thr1's v + 1. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern void assume_abort_if_not(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
volatile unsigned value, m = 0;
void __VERIFIER_atomic_acquire(void) { assume_abort_if_not(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { assume_abort_if_not(m == 1); m = 0; }
void *thr1(void *arg) {
    unsigned v = 0;
    __VERIFIER_atomic_acquire();
    if (value == 0u - 1) {
        __VERIFIER_atomic_release();
        return 0;
    }
    v = value;
    value = v + 1;
    __VERIFIER_atomic_release();
    __VERIFIER_atomic_begin();
    __VERIFIER_assert(value > v); // expect: violated
    __VERIFIER_atomic_end();
    return 0;
}
void *thr2(void *arg) {
    unsigned d = value;
    if (d != 0u - 1) value = d + 1;
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, thr2, 0);
    while (1) pthread_create(&t, 0, thr1, 0);
}
