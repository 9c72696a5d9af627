#include <pthread.h>
#include <assert.h>

// tas_figure3.c with a third thread that takes the lock by writing 1 without testing it: a
// write of 1 that is no test-and-set does not exclude a holder.
int lck = 0, inside = 0;

int __VERIFIER_atomic_tas(void) {
    int old = lck;
    lck = 1;
    return old;
}

void *blind(void *arg) {
    lck = 1;
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
    lck = 0;
    return 0;
}

void *thr(void *arg) {
    while (__VERIFIER_atomic_tas()) {}
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
    pthread_create(&t[0], 0, thr, 0);
    pthread_create(&t[1], 0, thr, 0);
    pthread_create(&t[2], 0, blind, 0);
    return 0;
}
