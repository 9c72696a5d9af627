/* Failing twin of result.c: the thread may return 5. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
void *child(void *arg) {
    if (__VERIFIER_nondet_int())
        pthread_exit((void *)7);
    return (void *)5;
}
int main(void) {
    pthread_t t;
    void *r;
    pthread_create(&t, 0, child, 0);
    pthread_join(t, &r);
    long v = (long)r;
    __VERIFIER_assert(v == 7); // expect: violated
    return 0;
}
