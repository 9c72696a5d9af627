/* An assertion no thread can reach is safe, and says so. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int flag = 0;
void never_called(void) {
    __VERIFIER_assert(0); // expect: safe
}
void *t(void *arg) {
    if (flag > 10) {
        __VERIFIER_assert(0); // expect: safe
    }
    flag = 1;
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t, 0);
    pthread_create(&b, 0, t, 0);
    return 0;
}
// PARAM: --engines coarsen
