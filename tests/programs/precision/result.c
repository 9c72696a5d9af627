/* Pattern 2: pthread_join yields what the thread returns or passes to pthread_exit. */
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
    __VERIFIER_assert(v >= 5 && v <= 7); // expect: safe [coarsen]
    __VERIFIER_assert(v >= 5); // expect: safe [coarsen]
    return 0;
}
