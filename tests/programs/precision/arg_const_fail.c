/* Failing twin of arg_const.c: one of two creation sites passes 44. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
void *child(void *arg) {
    long v = (long)arg;
    __VERIFIER_assert(v == 43); // expect: violated
    return 0;
}
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, child, (void *)43);
    pthread_create(&t2, 0, child, (void *)44);
    return 0;
}
