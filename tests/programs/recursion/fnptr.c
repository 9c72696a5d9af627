// Recursion through a function pointer: the front-end resolves the pointer to `count`, so the
// call is recursive like a direct one.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int count(int n);
int (*step)(int) = count;

int count(int n) {
    if (n <= 0)
        return 0;
    int r = step(n - 1);
    return r < 0 ? 0 : r + 1;
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 50)
        return 0;
    int r = count(n);
    assert(r >= 0); // expect: safe [coarsen]
    assert(r < 3); // expect: violated
    return 0;
}
