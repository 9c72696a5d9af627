// An atomic section whose assume may abort, in a loop that runs twice. The unrolled
// iterations share the abort branch (it leaves the loop), and the bounded search merged the
// two iterations' atomic sections there: a cycle in program order that made the code after
// the loop unreachable, so `x != 2` was `safe` (found by running SV-COMP's pthread tasks).
#include <pthread.h>
#include <assert.h>

extern void abort(void);

int lock = 0, x = 0;

void __VERIFIER_atomic_acquire(void) {
    if (!(lock == 0))
        abort();
    lock = 1;
}

void __VERIFIER_atomic_release(void) { lock = 0; }

void *spin(void *arg) {
    for (int i = 0; i < 2; i++) {
        __VERIFIER_atomic_acquire();
        x = x + 1;
        __VERIFIER_atomic_release();
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, spin, 0);
    pthread_join(t, 0);
    assert(x <= 2); // expect: holds
    assert(x != 2); // expect: violated
    return 0;
}
