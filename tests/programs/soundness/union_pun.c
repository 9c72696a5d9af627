#include <assert.h>
#include <pthread.h>

// The bounded search gave both assertions `safe`: the read of `w.i` was constrained to
// int's range, so the value `w.u` wrote made every path through it vanish.
union word { unsigned u; int i; };
union word w;

void *t(void *a) { return 0; }

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    w.u = 4294967295u;
    int v = w.i;
    assert(v == -1); // expect: safe
    assert(v != -1); // expect: violated
    return 0;
}
