/* Widening with thresholds and narrowing keep loop bounds; wrap-around is exact for unsigned. */
extern void __VERIFIER_assert(int);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
    int i, s = 0;
    for (i = 0; i < 100; i++) {
        s = s + 2;
    }
    __VERIFIER_assert(i == 100); // expect: safe
    __VERIFIER_assert(s >= 0); // expect: safe
    unsigned u = __VERIFIER_nondet_uint();
    unsigned w = u + 1;
    __VERIFIER_assert(w >= 1); // expect: unknown
    unsigned char c = 255;
    c = c + 1;
    __VERIFIER_assert(c == 0); // expect: safe
    return 0;
}
// PARAM: --engines coarsen
