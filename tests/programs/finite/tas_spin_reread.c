// A test-and-set spin lock whose loop re-reads the flag into the same local and sets it again
// (`cond = lock; lock = 1` in one atomic section, before the loop and inside it), as in
// SV-COMP's pthread-ext tasks. The region analysis of the automatic exception sets once cycled
// for ever on this shape, ignoring every time budget. Mutual exclusion holds.
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
#include <pthread.h>

int lock = 0;
int inside = 0;

void *thr(void *arg) {
    int cond;
    __VERIFIER_atomic_begin();
    cond = lock;
    lock = 1;
    __VERIFIER_atomic_end();
    while (cond == 1) {
        __VERIFIER_atomic_begin();
        cond = lock;
#ifndef SKIP_SET
        lock = 1;
#endif
        __VERIFIER_atomic_end();
    }
    inside = inside + 1;
    if (inside != 1) reach_error(); // expect: holds
    inside = inside - 1;
    lock = 0;
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, thr, 0);
    pthread_create(&b, 0, thr, 0);
    pthread_create(&c, 0, thr, 0);
    return 0;
}
