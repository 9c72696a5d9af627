#include <assert.h>
#include <pthread.h>

// A thread stopped at `__builtin_unreachable` does not stop the others: main still fails.
extern int __VERIFIER_nondet_int(void);

int g;

void *t(void *arg) {
    g = 1;
    __builtin_unreachable();
}

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    int a = __VERIFIER_nondet_int();
    if (a < 0)
        __builtin_unreachable();
    assert(a > 0); // expect: violated
    assert(g == 0); // expect: violated
    return 0;
}
