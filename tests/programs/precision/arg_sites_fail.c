/* Failing twin of arg_sites.c: the loop passes 0 first. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
void *child(void *arg) {
    long v = (long)arg;
    __VERIFIER_assert(v >= 1 && v <= 10); // expect: violated
    return 0;
}
int main(void) {
    pthread_t t[8];
    pthread_create(&t[0], 0, child, (void *)10);
    for (long i = 0; i < 8; i++)
        pthread_create(&t[i], 0, child, (void *)i);
    return 0;
}
