#include <pthread.h>
#include <assert.h>

// Figure 3 of the exception-set paper with the lock taken by a test-and-set loop: the atomic
// read-and-set writes lck = 1 whether or not the lock was free, and a thread enters only when
// the value it read was 0. Three threads, two critical sections each, and a ghost counter of
// the threads inside.
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
    lck = 0;
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
