#include <pthread.h>
#include <assert.h>

// tas_figure3.c whose first release writes 1: the lock is never free again, so the first
// thread in spins forever at its second acquire and nobody else enters. Mutual exclusion
// still holds (a write of 1 only keeps the lock taken); the twin that a write of 1 breaks
// is tas_blind_set.c.
int lck = 0, inside = 0;

int __VERIFIER_atomic_tas(void) {
    int old = lck;
    lck = 1;
    return old;
}

void *thr(void *arg) {
    while (__VERIFIER_atomic_tas()) {}
    inside = inside + 1;
    assert(inside == 1); // expect: safe
    inside = inside - 1;
    lck = 1;
    while (__VERIFIER_atomic_tas()) {}
    inside = inside + 1;
    assert(inside == 1); // expect: safe
    inside = inside - 1;
    lck = 0;
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, thr, 0);
    return 0;
}
