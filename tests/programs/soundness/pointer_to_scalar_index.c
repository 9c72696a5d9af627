#include <assert.h>
#include <pthread.h>

// `p[0]` with `p = &x`, and `*(int *)&s` (a pointer to a struct seen as one to its first
// member): the alias model gave such writes a cell of their own that no direct access of `x`
// or `s.a` reads, so the other thread's write was lost (a wrong safe, by both engines).
int x;
struct S { int a; int b; } s;

void *t(void *arg) {
    int *p = &x;
    p[0] = 5;
    int *w = (int *)&s;
    *w = 3;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    assert((x == 0 || x == 5) && (s.a == 0 || s.a == 3)); // expect: safe
    assert(x == 0 && s.a == 0); // expect: violated
    pthread_join(h, 0);
    return 0;
}
