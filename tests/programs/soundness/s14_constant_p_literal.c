#include <assert.h>
#include <pthread.h>

// GCC's `__builtin_constant_p` is 1 for an integer constant expression at every optimisation
// level. It was taken as 0 everywhere: the first assertion was `violated`, the second `safe`.
int c, g;

void *t(void *p) {
    g = 1;
    return 0;
}

int main(void) {
    c = __builtin_constant_p(3 * 4 - 1);
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(c == 1); // expect: safe
    assert(c == 0); // expect: violated
    return 0;
}
