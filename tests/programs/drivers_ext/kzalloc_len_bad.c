// A zeroing kernel allocation of a length that is no `sizeof`: its contents are read as
// arbitrary (they are zero), so this assertion, false in every run, must never be `safe`.
#include <assert.h>
typedef unsigned long size_t;
extern void *kzalloc(size_t size, unsigned int flags);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
    size_t len = __VERIFIER_nondet_uint();
    if (len < 8)
        return 0;
    int *p = kzalloc(len, 0);
    if (!p)
        return 0;
    assert(p[1] == 5); // expect: fails
    return 0;
}
