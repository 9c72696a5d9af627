/* Twin threads among routines of one shape: step1, step2 and step3 run the same code over
   their own globals, from equal inputs, so their results are pairwise equal after the joins.
   step4 adds 2 instead of 1 and step5 reads its globals in another order: same shape or
   almost, not twins, and the assertions over them can fail. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern unsigned __VERIFIER_nondet_uint(void);
unsigned x1, x2, x3, x4, x5, y1, y2, y3, y4, y5;
void *step1(void *arg) { while (x1 < 100) { x1 = x1 + 1; y1 = y1 + x1; } return 0; }
void *step2(void *arg) { while (x2 < 100) { x2 = x2 + 1; y2 = y2 + x2; } return 0; }
void *step3(void *arg) { while (x3 < 100) { x3 = x3 + 1; y3 = y3 + x3; } return 0; }
void *step4(void *arg) { while (x4 < 100) { x4 = x4 + 2; y4 = y4 + x4; } return 0; }
void *step5(void *arg) { while (x5 < 100) { x5 = x5 + 1; y5 = x5 + y5; } return 0; }
int main(void) {
    pthread_t a, b, c, d, e;
    x1 = __VERIFIER_nondet_uint();
    x2 = x1; x3 = x1; x4 = x1; x5 = x1;
    y1 = 0; y2 = 0; y3 = 0; y4 = 0; y5 = 0;
    pthread_create(&a, 0, step1, 0);
    pthread_create(&b, 0, step2, 0);
    pthread_create(&c, 0, step3, 0);
    pthread_create(&d, 0, step4, 0);
    pthread_create(&e, 0, step5, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    pthread_join(e, 0);
    __VERIFIER_assert(y1 == y2); // expect: safe [coarsen]
    __VERIFIER_assert(y2 == y3); // expect: safe [coarsen]
    __VERIFIER_assert(y1 == y4); // expect: violated
    return 0;
}
