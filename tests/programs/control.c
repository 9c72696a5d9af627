extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
    int k = __VERIFIER_nondet_int(), r = 0;
    switch (k) {
    case 1: r = 10; break;
    case 2: r = 20;
    default: r += 1;
    }
    do { k--; if (k == 3) continue; if (k < 0) goto out; } while (k > 0);
out:
    r = (k > 0 && r > 1) ? r : -r;
    __VERIFIER_assert(r != 5 || k); // expect: safe
    return 0;
}
