#include <assert.h>
#include <pthread.h>

// The front-end typed a bit-field read by its declared type, so `s.a - 1` on an `unsigned :3`
// computed in `unsigned int` and `s.i - 1` on an `unsigned long long :32` in 64 bits; GCC
// promotes the first to `int` and computes the second in 32 bits: the assertion that holds
// was `violated`.
struct bf { unsigned a : 3; int b : 3; unsigned long long i : 32; };
struct bf s;

void *t(void *x) { return 0; }

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    s.a = 0;
    s.b = 3;
    s.b += 1;
    s.i = 0;
    int lt = s.a - 1 < 0;
    unsigned long long v = s.i - 1;
    assert(lt == 1 && s.b == -4 && v == 4294967295ull); // expect: safe
    assert(lt == 0 || v != 4294967295ull); // expect: violated
    return 0;
}
