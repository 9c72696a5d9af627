/* Every scalar takes one slot in the memory model, so `offsetof(struct S, b)` was 1 and the
 * difference of `(char *)&s.b` and `(char *)&s` too: the first assertion, which holds in C,
 * was reported violated, and the second, which fails, safe. Both values are now unsupported
 * constructs; `offsetof` as the offset of a character pointer (`container_of`) stays exact. */
#include <stddef.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
struct S {
    int a;
    int b;
} s;
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n)
        __VERIFIER_assert(offsetof(struct S, b) == 4); // expect: unknown
    else
        __VERIFIER_assert((char *)&s.b - (char *)&s == 1); // expect: unknown
    return 0;
}
