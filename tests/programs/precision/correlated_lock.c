/* Pattern 5: the lock is held exactly when the local `c` holds, and `c` is unchanged between
   the two tests. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
void *worker(void *arg) {
    int c = __VERIFIER_nondet_int();
    if (c)
        pthread_mutex_lock(&m);
    int work = 1;
    if (c) {
        g = 1;
        g = work - 1;
        pthread_mutex_unlock(&m);
    }
    return 0;
}
void *checker(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(g == 0); // expect: safe [coarsen]
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    for (int i = 0; i < 3; i++) {
        pthread_create(&t, 0, worker, 0);
        pthread_create(&t, 0, checker, 0);
    }
    return 0;
}
