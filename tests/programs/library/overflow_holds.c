#include <assert.h>
#include <limits.h>
#include <pthread.h>

// GCC's overflow built-ins store the wrapped result and return whether it wrapped.
unsigned char uc;
long long big;
int g = -5;

void *t(void *a) { return 0; }

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    int r;
    int o1 = __builtin_add_overflow(INT_MAX, 1, &r);
    assert(o1 && r == INT_MIN); // expect: safe
    unsigned u;
    assert(__builtin_sub_overflow(0u, 1u, &u) && u == UINT_MAX); // expect: safe
    assert(__builtin_mul_overflow(16, 16, &uc) && uc == 0); // expect: safe
    assert(!__builtin_sub_overflow(0u, 1, &big) && big == -1); // expect: safe
    unsigned long long ul;
    assert(__builtin_add_overflow(g, 0, &ul) && ul == 18446744073709551611ull); // expect: safe
    long m;
    assert(!__builtin_mul_overflow(3, 4, &m) && m == 12); // expect: safe
    return 0;
}
