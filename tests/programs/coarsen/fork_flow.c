/* Values written before a thread is created flow into it; values written after may reach it. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int x, y;
void *child(void *arg) {
    __VERIFIER_assert(x == 5); // expect: safe
    __VERIFIER_assert(y == 1); // expect: unknown
    return 0;
}
int main(void) {
    pthread_t t;
    x = 5;
    y = 1;
    pthread_create(&t, 0, child, 0);
    y = 2;
    return 0;
}
// PARAM: --engines coarsen
