// Two threads raise i and j in turn, ten times each. Only the strict alternation of their
// atomic steps takes either value to 26, so the bug needs one interleaving out of many: a
// small state space, and a hard formula for the bounded search (SV-COMP's triangular-longer).
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int i = 3, j = 6;

void *raise_i(void *arg) {
    for (int k = 0; k < 10; k++) {
        __VERIFIER_atomic_begin();
        i = j + 1;
        __VERIFIER_atomic_end();
    }
    return 0;
}

void *raise_j(void *arg) {
    for (int k = 0; k < 10; k++) {
        __VERIFIER_atomic_begin();
        j = i + 1;
        __VERIFIER_atomic_end();
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, raise_i, 0);
    pthread_create(&b, 0, raise_j, 0);
    __VERIFIER_atomic_begin();
    int big_i = i >= 26;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    int big_j = j >= 26;
    __VERIFIER_atomic_end();
    assert(!big_i && !big_j); // expect: fails
    return 0;
}
// PARAM: --search-time 2
