/* Twin of join_paths_bool.c: the combination tested is possible (s0 = 1, s1 = s2 = 0 gives
   r3 = 1, r4 = 0, r5 = 1). */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern _Bool __VERIFIER_nondet_bool(void);
int r3, r4, r5;
_Bool s0, s1, s2;
void *comp01(void *arg) {
    r3 = s0 == s1 ? 0 : (s1 ? -1 : 1);
    return 0;
}
void *comp12(void *arg) {
    r4 = s1 == s2 ? 0 : (s2 ? -1 : 1);
    return 0;
}
void *comp02(void *arg) {
    r5 = s0 == s2 ? 0 : (s2 ? -1 : 1);
    return 0;
}
int main(void) {
    pthread_t t1, t2, t3;
    s0 = __VERIFIER_nondet_bool();
    s1 = __VERIFIER_nondet_bool();
    s2 = __VERIFIER_nondet_bool();
    pthread_create(&t1, 0, comp01, 0);
    pthread_create(&t2, 0, comp12, 0);
    pthread_create(&t3, 0, comp02, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    __VERIFIER_assert(!(r3 > 0 && r4 <= 0 && r5 > 0)); // expect: violated
    return 0;
}
