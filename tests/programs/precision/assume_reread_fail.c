/* Pattern 4 guard: an assume refines only until another thread stores again. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int g;
void *writer(void *arg) {
    g = 7;
    g = 8;
    return 0;
}
void *tester(void *arg) {
    if (g == 7) {
        __VERIFIER_assert(g == 7); // expect: violated
    }
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, tester, 0);
    return 0;
}
