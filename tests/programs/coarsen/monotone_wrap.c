/* Failing twin of tests/programs/precision/monotone_tas.c without the wrap guard: after
   UINT_MAX increments a thread stores 0, and its value > v fails. Only reachable after 2^32
   increments, so no search finds it; COARSEN must not prove it. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern void assume_abort_if_not(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
volatile unsigned value, m = 0;
void __VERIFIER_atomic_acquire(void) { assume_abort_if_not(m == 0); m = 1; }
void __VERIFIER_atomic_release(void) { assume_abort_if_not(m == 1); m = 0; }
void *thr1(void *arg) {
    unsigned v;
    __VERIFIER_atomic_acquire();
    v = value;
    value = v + 1;
    __VERIFIER_atomic_release();
    __VERIFIER_atomic_begin();
    __VERIFIER_assert(value > v); // expect: unknown
    __VERIFIER_atomic_end();
    return 0;
}
int main(void) {
    pthread_t t;
    while (1) pthread_create(&t, 0, thr1, 0);
}
// PARAM: --engines coarsen
