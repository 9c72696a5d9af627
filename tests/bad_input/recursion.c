extern void __VERIFIER_assert(int);
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main(void) {
    __VERIFIER_assert(fact(3) == 6);
    return 0;
}
