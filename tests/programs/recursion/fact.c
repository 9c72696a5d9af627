// The recursion of the old unsupported-construct example, now analysed: fact(3) is inlined
// exactly, and the shared copy beyond the inlined depth is unreachable.
extern void __VERIFIER_assert(int);
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main(void) {
    __VERIFIER_assert(fact(3) == 6); // expect: safe [coarsen]
    return 0;
}
