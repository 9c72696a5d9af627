extern void __VERIFIER_assert(int); extern int pthread_barrier_wait(void *);
int b; int f(int n) { pthread_barrier_wait(&b); return n; }
int main(void) {
    __VERIFIER_assert(f(3) == 3);
    return 0;
}
