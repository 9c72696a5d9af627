// `calloc(n, size)` whose size is no `sizeof`: a fresh object whose contents every engine
// reads as arbitrary (they are zero); what the program stores there afterwards is exact.
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    unsigned long size = sizeof(int) * 2;
    if (n < 1 || n > 8)
        return 0;
    int *p = calloc(n, size);
    if (!p)
        return 0;
    p[0] = 4;
    int x = p[0];
    assert(x == 4); // expect: safe
    assert(n >= 1); // expect: safe [coarsen]
    return 0;
}
