/* Pattern 1: a thread's parameter takes the value its creation site passes. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
void *child(void *arg) {
    long v = (long)arg;
    __VERIFIER_assert(v == 43); // expect: safe [coarsen]
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, child, (void *)43);
    return 0;
}
