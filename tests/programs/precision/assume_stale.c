/* Pattern 4: an assume writes no memory. The value another thread's assume refined is not
   current after this thread overwrote it: only real stores flow between threads. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int g, seen;
void *early(void *arg) {
    g = 7;
    return 0;
}
void *tester(void *arg) {
    if (g == 7)
        seen = 1;
    return 0;
}
void *overwriter(void *arg) {
    g = 5;
    __VERIFIER_assert(g == 5); // expect: safe
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
