/* A global that only grows (issue 13, 01_inc): every write of value is an increment under the
   test-and-set lock m, read under the same lock, and never from UINT_MAX. So after a thread's
   own increment, value > v stays true whatever the other threads do, for any number of them. */
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
    __VERIFIER_assert(value > v); // expect: safe [coarsen]
    __VERIFIER_atomic_end();
    return 0;
}
int main(void) {
    pthread_t t;
    while (1) pthread_create(&t, 0, thr1, 0);
}
