/* Failing twin of protected.c: the checker reads without the lock. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g = 6;
void *worker(void *arg) {
    pthread_mutex_lock(&m);
    g = 5;
    g = 6;
    pthread_mutex_unlock(&m);
    return 0;
}
void *checker(void *arg) {
    __VERIFIER_assert(g == 6); // expect: violated
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, checker, 0);
    return 0;
}
