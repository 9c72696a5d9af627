extern void __VERIFIER_assert(int);
int main(void) {
    int x = 0;
    __asm__ volatile ("movl $1, %0" : "=r" (x));
    __VERIFIER_assert(x == 0);
    return 0;
}
