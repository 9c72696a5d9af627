#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

void *t(void *a) { return 0; }

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    int a = __VERIFIER_nondet_int(), r;
    if (__builtin_add_overflow(a, 100, &r))
        return 0;
    assert(r > a); // expect: holds
    assert(r < 2147483600); // expect: violated (fails: a = INT_MAX - 100 does not overflow)
    unsigned char c;
    assert(!__builtin_mul_overflow(a, 2, &c)); // expect: violated (fails: a = 200)
    return 0;
}
