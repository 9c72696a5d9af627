/* Pattern 4 guard: a thread tests g == 7 and stores it again, after which another thread's own
   store of 5 may be overwritten. */
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
    __VERIFIER_assert(g == 5); // expect: violated
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
