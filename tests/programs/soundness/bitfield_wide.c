#include <assert.h>
#include <pthread.h>

// GCC computes on an `unsigned long long :40` modulo 2^40, so `s.c - 1` is 0xffffffffff; the
// IR computed it in 64 bits, and the assertion that holds was `violated`.
struct bf { unsigned long long c : 40; };
struct bf s;

void *t(void *x) { return 0; }

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    s.c = 0;
    unsigned long long v = s.c - 1;
    assert(v == 0xffffffffffull); // expect: unknown
    assert(v != 0xffffffffffull); // expect: unknown
    return 0;
}
