#include <pthread.h>
#include <assert.h>

// tas_figure3.c with a third thread that enters its critical section without the lock.
int lck = 0, inside = 0;

int __VERIFIER_atomic_tas(void) {
    int old = lck;
    lck = 1;
    return old;
}

void *skipper(void *arg) {
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
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
    pthread_create(&t[2], 0, skipper, 0);
    return 0;
}
