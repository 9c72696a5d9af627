/* Failing twin of correlated_lock.c: the access is outside the second test. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
void *worker(void *arg) {
    int c = __VERIFIER_nondet_int();
    if (c)
        pthread_mutex_lock(&m);
    g = 1;
    g = 0;
    if (c)
        pthread_mutex_unlock(&m);
    return 0;
}
void *checker(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(g == 0); // expect: violated
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, checker, 0);
    return 0;
}
