// The failing twin of sum_guarded.c: sum(10) is 55, so the bound 54 fails.
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
    assert(r <= 54); // expect: violated
    return 0;
}
