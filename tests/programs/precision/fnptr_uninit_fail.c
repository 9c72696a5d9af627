#include <assert.h>
#include <pthread.h>

// The twin of fnptr_uninit.c: the pointer is assigned one of two start routines, and the
// second breaks the assertion.
extern int __VERIFIER_nondet_int(void);
int g;

void *worker(void *arg) {
    g = 1;
    return 0;
}

void *breaker(void *arg) {
    g = 2;
    return 0;
}

int main(void) {
    void *(*f)(void *);
    pthread_t t;
    if (__VERIFIER_nondet_int())
        f = worker;
    else
        f = breaker;
    pthread_create(&t, 0, f, 0);
    pthread_join(t, 0);
    assert(g == 1); // expect: violated
    return 0;
}
