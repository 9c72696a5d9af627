extern void __VERIFIER_assert(int);
extern int (*lookup(void))(int);
int inc(int v) { return v + 1; }
int (*g)(int) = inc;
int main(void) {
    int (*f)(int) = lookup();
    __VERIFIER_assert(f(1) == 2);
    return 0;
}
