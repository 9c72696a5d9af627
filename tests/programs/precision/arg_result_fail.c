/* Failing twin of arg_result.c: the result may be 101. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
void *f(void *a) {
    long n = (long)a;
    return (void *)(n + 1);
}
int main(void) {
    pthread_t t;
    void *r;
    long n = __VERIFIER_nondet_int();
    if (n > 100 || n < 0)
        return 0;
    pthread_create(&t, 0, f, (void *)n);
    pthread_join(t, &r);
    __VERIFIER_assert((long)r >= 1 && (long)r <= 100); // expect: violated
    return 0;
}
