/* Failing twin of assume_fork.c: main lowers g after the test. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int g;
void *child(void *arg) {
    __VERIFIER_assert(g >= 3); // expect: violated
    return 0;
}
void *parent(void *arg) {
    pthread_t c;
    if (g >= 3)
        pthread_create(&c, 0, child, 0);
    return 0;
}
int main(void) {
    pthread_t a, b;
    g = __VERIFIER_nondet_int() % 10;
    pthread_create(&a, 0, parent, 0);
    g = 1;
    return 0;
}
