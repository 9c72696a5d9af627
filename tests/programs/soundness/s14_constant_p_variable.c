#include <assert.h>
#include <pthread.h>

// `__builtin_constant_p` of a variable: 0 at -O0, 1 at -O2 where GCC propagates `w = 5` into
// the call. Neither answer may be assumed: no `safe` for `c == 0`, and no `violated` either.
int c, g;

void *t(void *p) {
    g = 1;
    return 0;
}

int main(void) {
    int w = 5;
    c = __builtin_constant_p(w);
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(g == 1); // HOLDS
    assert(c == 0); // FAILS (with optimisation)
    return 0;
}
