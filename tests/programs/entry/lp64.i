# 1 "lp64.c"
typedef unsigned long size_t;
typedef long ptrdiff_t;
extern void __VERIFIER_assert(int);
int main(void) {
    __VERIFIER_assert(sizeof(void *) == 8);
    return 0;
}
// The line marker names lp64.c: the assertion is reported at its line.
// expect at lp64.c:5: safe
