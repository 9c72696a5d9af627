/* A loop with an input bound: no bound covers it, so the bounded search claims bounded-safe. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
    int n = __VERIFIER_nondet_int();
    int i = 0;
    while (i < n) {
        i++;
    }
    __VERIFIER_assert(i >= 0); // expect: safe
    return 0;
}
