// One helper called inside an atomic section and outside one, by the same thread. Inlined,
// each copy has its own atomicity; a shared copy (a small --inline-limit) is marked atomic
// only where every path to it is, so it is interruptible for every caller: more
// interleavings than the program has, which a proof covers and a replay filters out.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x;

void twice(void) {
    x = x + 1;
    x = x + 1;
}

void *worker(void *arg) {
    __VERIFIER_atomic_begin();
    twice();
    __VERIFIER_atomic_end();
    twice();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    __VERIFIER_atomic_begin();
    int seen = x;
    __VERIFIER_atomic_end();
    assert(seen != 1); // expect: safe
    assert(seen != 3); // expect: violated
    return 0;
}
