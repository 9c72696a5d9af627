extern void __VERIFIER_assert(int); extern int pthread_key_create(unsigned *, void (*)(void *));
unsigned k; void drop(void *p) {} int f(int n) { pthread_key_create(&k, drop); return n; }
int main(void) {
    __VERIFIER_assert(f(3) == 3);
    return 0;
}
