#include <pthread.h>
#include <assert.h>

// tas_figure3.c whose first acquire ignores what the test-and-set read: a thread enters
// even when the lock was taken.
int lck = 0, inside = 0;

int __VERIFIER_atomic_tas(void) {
    int old = lck;
    lck = 1;
    return old;
}

void *thr(void *arg) {
    __VERIFIER_atomic_tas();
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
    lck = 0;
    while (__VERIFIER_atomic_tas()) {}
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
    lck = 0;
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, thr, 0);
    return 0;
}
