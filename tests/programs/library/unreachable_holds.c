#include <assert.h>
#include <pthread.h>

// Reaching `__builtin_unreachable` is undefined: the path ends there.
extern int __VERIFIER_nondet_int(void);

int g;

void *t(void *arg) {
    if (g == 0)
        __builtin_unreachable();
    return 0;
}

int main(void) {
    pthread_t x;
    int a = __VERIFIER_nondet_int();
    if (a < 0)
        __builtin_unreachable();
    g = 1;
    pthread_create(&x, 0, t, 0);
    assert(a >= 0); // expect: safe
    return 0;
}
