/* Failing twin of protected_assume.c: the tester's refined value does not stay confined. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
void *setter(void *arg) {
    pthread_mutex_lock(&m);
    g = __VERIFIER_nondet_int() % 10;
    if (g < 0) g = 0;
    pthread_mutex_unlock(&m);
    return 0;
}
void *tester(void *arg) {
    pthread_mutex_lock(&m);
    if (g == 3) {
        g = 40;
    }
    pthread_mutex_unlock(&m);
    return 0;
}
void *checker(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(g >= 0 && g <= 9); // expect: violated
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, setter, 0);
    pthread_create(&b, 0, tester, 0);
    pthread_create(&c, 0, checker, 0);
    return 0;
}
