// sum(n) for any n >= 0: deeper than the exactly inlined copies. The shared copy of `sum`
// covers every depth, so the lower bound is still proved; the result is at least n.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int sum(int n) {
    if (n <= 0)
        return 0;
    int r = sum(n - 1);
    if (r < 0)
        return 0;
    return r + 1;
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 1000)
        return 0;
    int r = sum(n);
    assert(r >= 0); // expect: safe [coarsen]
    assert(r <= 0); // expect: violated
    return 0;
}
