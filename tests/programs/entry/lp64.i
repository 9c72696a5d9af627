# 1 "lp64.c"
typedef unsigned long size_t;
typedef long ptrdiff_t;
extern void __VERIFIER_assert(int);
int main(void) {
    __VERIFIER_assert(sizeof(void *) == 8);
    return 0;
}
