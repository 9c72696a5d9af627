/* Pattern 2 and 3: the result passed to pthread_exit, and the thread's last store, reach the joiner. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int g;
void *child(void *arg) {
    g = 1;
    pthread_exit((void *)5);
}
int main(void) {
    pthread_t t;
    void *r;
    pthread_create(&t, 0, child, 0);
    pthread_join(t, &r);
    long v = (long)r;
    __VERIFIER_assert(v == 5); // expect: safe [coarsen]
    __VERIFIER_assert(g == 0); // expect: violated
    return 0;
}
