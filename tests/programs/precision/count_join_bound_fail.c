/* Failing twin of count_join.c: the loops compare the counter differently (`<` and `<=`), so
   their counts differ. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int n, level;
void *up(void *arg) {
    for (int i = 0; i < n; i++) {
        __VERIFIER_atomic_begin();
        level++;
        __VERIFIER_atomic_end();
    }
    return 0;
}
void *down(void *arg) {
    for (int j = 0; j <= n; j++) {
        __VERIFIER_atomic_begin();
        level--;
        __VERIFIER_atomic_end();
    }
    return 0;
}
int main(void) {
    pthread_t a, b;
    n = __VERIFIER_nondet_int();
    if (n < 0 || n > 3)
        return 0;
    pthread_create(&a, 0, up, 0);
    pthread_create(&b, 0, down, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    __VERIFIER_assert(level == 0); // expect: violated
    return 0;
}
