/* Failing twin of monotone_tas.c: v is read before the lock is taken, so a thread may store
   a stale v + 1 below what another thread already stored and checks. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern void assume_abort_if_not(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
volatile unsigned value, m = 0;
void __VERIFIER_atomic_acquire(void) { assume_abort_if_not(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { assume_abort_if_not(m == 1); m = 0; }
void *thr1(void *arg) {
    unsigned v = value;
    __VERIFIER_atomic_acquire();
    if (v == 0u - 1) {
        __VERIFIER_atomic_release();
        return 0;
    }
    value = v + 1;
    __VERIFIER_atomic_release();
    __VERIFIER_atomic_begin();
    __VERIFIER_assert(value > v); // expect: violated
    __VERIFIER_atomic_end();
    return 0;
}
int main(void) {
    pthread_t t;
    while (1) pthread_create(&t, 0, thr1, 0);
}
