extern void __VERIFIER_assert(int);
int inc(int v) { return v + 1; }
int main(void) {
    int (*f)(int) = inc;
    __VERIFIER_assert(f(1) == 2);
    return 0;
}
