# 1 "ilp32.c"
typedef unsigned int size_t;
typedef int ptrdiff_t;
extern void __VERIFIER_assert(int);
int main(void) {
    size_t n = sizeof(long);
    __VERIFIER_assert(sizeof(void *) == 4);
    __VERIFIER_assert(n == 4);
    return 0;
}
// The line marker names ilp32.c: the assertions are reported at its lines.
// expect at ilp32.c:6: safe
// expect at ilp32.c:7: safe
