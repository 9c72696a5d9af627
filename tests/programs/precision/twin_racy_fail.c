/* Twin of twin_threads.c: a third thread writes the first twin's global, so the twins do not
   compute from equal values alone. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern unsigned __VERIFIER_nondet_uint(void);
unsigned x1, x2, n, steps1, steps2;
void *double1(void *arg) {
    while (x1 < n) {
        x1 = x1 + x1;
        steps1 = steps1 + 1;
    }
    return 0;
}
void *double2(void *arg) {
    while (x2 < n) {
        x2 = x2 + x2;
        steps2 = steps2 + 1;
    }
    return 0;
}
void *reset(void *arg) {
    x1 = 1;
    return 0;
}
int main(void) {
    pthread_t a, b, c;
    x1 = __VERIFIER_nondet_uint();
    x2 = x1;
    n = __VERIFIER_nondet_uint();
    if (x1 == 0)
        return 0;
    pthread_create(&a, 0, double1, 0);
    pthread_create(&b, 0, double2, 0);
    pthread_create(&c, 0, reset, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    __VERIFIER_assert(x1 == x2); // expect: violated
    return 0;
}
