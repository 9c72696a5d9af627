/* Twin of join_paths_cmp.c: r1 == 0 says a == b and x == y, but cmp3 compares y with z the
   other way round (z - y), so r2 and r3 have opposite signs whenever x != z. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int a, b, c, x, y, z, r1, r2, r3;
void *cmp1(void *arg) {
    r1 = a - b;
    if (r1 == 0)
        r1 = x - y;
    return 0;
}
void *cmp2(void *arg) {
    r2 = a - c;
    if (r2 == 0)
        r2 = x - z;
    return 0;
}
void *cmp3(void *arg) {
    r3 = b - c;
    if (r3 == 0)
        r3 = z - y;
    return 0;
}
int main(void) {
    pthread_t t1, t2, t3;
    a = __VERIFIER_nondet_int();
    b = __VERIFIER_nondet_int();
    c = __VERIFIER_nondet_int();
    x = __VERIFIER_nondet_int();
    y = __VERIFIER_nondet_int();
    z = __VERIFIER_nondet_int();
    pthread_create(&t1, 0, cmp1, 0);
    pthread_create(&t2, 0, cmp2, 0);
    pthread_create(&t3, 0, cmp3, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    if (r1 == 0)
        __VERIFIER_assert((r2 > 0) == (r3 > 0)); // expect: violated
    return 0;
}
