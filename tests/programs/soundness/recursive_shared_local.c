// A local whose address is taken, in a recursive function called deeper than its inlined
// copies: the frames beyond them share one `x`, so the callee's `set` overwrites the caller's.
// In C each frame keeps its own `x`: the first assertion holds, and the second fails in the
// frame two calls deep (d == 18), well within any bound. The shared copy hid that failure and
// the bounded search called it `bounded-safe`.
#include <assert.h>

void set(int *p, int v) { *p = v; }

int f(int d) {
    int x;
    set(&x, d);
    if (d > 0)
        f(d - 1);
    assert(x == d); // expect: unknown
    assert(x - d + (d != 18) != 0); // expect: unknown
    return x;
}

int main(void) {
    f(20);
    return 0;
}
// PARAM: --search-time 2
