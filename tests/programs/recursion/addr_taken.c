// A local whose address is taken in a recursive function: beyond the inlined copies all frames
// would share the object, so the shared copy is incomplete. The assertion holds in C (each
// frame's `x` is its own) and must not be violated; the shared copy must not prove anything.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

void set(int *p, int v) { *p = v; }

int f(int d) {
    int x;
    set(&x, d);
    if (d > 0)
        f(d - 1);
    assert(x == d); // expect: holds
    return x;
}

int main(void) {
    int d = __VERIFIER_nondet_int();
    if (d < 0 || d > 20)
        return 0;
    f(d);
    return 0;
}
// PARAM: --search-time 2
