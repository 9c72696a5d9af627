// The failing twin of calloc_size.c: the contents of a `calloc(n, size)` object are read as
// arbitrary, so an assertion that only zero contents could make hold is not proved; the
// assertion below fails in every run (calloc zeroes), and must never be `safe`.
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    unsigned long size = sizeof(int);
    if (n < 1 || n > 8)
        return 0;
    int *p = calloc(n, size);
    if (!p)
        return 0;
    assert(p[0] != 0); // expect: fails
    return 0;
}
