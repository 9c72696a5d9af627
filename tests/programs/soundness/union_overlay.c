#include <assert.h>
#include <pthread.h>

// The bounded search said `violated` for the assertion that holds and `safe` for the one that
// fails: the IR gave `h[1]` a slot of its own, which the write to `w` never touched, so it read
// 0 where C reads the upper half of `w`.
union U { unsigned int w; unsigned short h[2]; };
union U u;

void *t(void *a) { u.w = 0x00010002u; return 0; }

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    pthread_join(x, 0);
    assert(u.h[1] == 1); // expect: unknown
    assert(u.h[1] == 0); // expect: unknown
    return 0;
}
