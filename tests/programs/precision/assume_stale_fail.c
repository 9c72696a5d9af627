/* Failing twin of assume_stale.c: the tester stores 7 again. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int g, seen;
void *early(void *arg) {
    g = 7;
    return 0;
}
void *tester(void *arg) {
    if (g == 7)
        g = 7;
    return 0;
}
void *overwriter(void *arg) {
    g = 5;
    __VERIFIER_assert(g == 5); // expect: fails
    return 0;
}
int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, early, 0);
    pthread_join(a, 0);
    pthread_create(&b, 0, tester, 0);
    pthread_create(&c, 0, overwriter, 0);
    return 0;
}
