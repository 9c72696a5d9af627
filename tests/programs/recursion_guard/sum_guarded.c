// sum(n) for 0 <= n <= 10: the guard bounds the recursion's argument, so the exact copies
// reach the base case (12 of them, more than the default 8) and the exact sum is proved.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int sum(int n) {
    if (n <= 0)
        return 0;
    return n + sum(n - 1);
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 10)
        return 0;
    int r = sum(n);
    assert(r <= 55); // expect: safe [coarsen]
    return 0;
}
