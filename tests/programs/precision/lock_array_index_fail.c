/* Failing twin of lock_array.c: the worker locks `locks[i]` and writes `a[j]` (two threads may
   hold different locks over one element). */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
#define N 8
pthread_mutex_t locks[N];
int a[N];
void *worker(void *arg) {
    int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
    if (i < 0 || i >= N || j < 0 || j >= N) return 0;
    pthread_mutex_lock(&locks[i]);
    a[j]++;
    a[j]--;
    pthread_mutex_unlock(&locks[i]);
    return 0;
}
void *checker(void *arg) {
    int j = __VERIFIER_nondet_int();
    if (j < 0 || j >= N) return 0;
    pthread_mutex_lock(&locks[j]);
    __VERIFIER_assert(a[j] == 0); // expect: violated
    pthread_mutex_unlock(&locks[j]);
    return 0;
}
int main(void) {
    pthread_t t;
    for (int k = 0; k < N; k++)
        pthread_mutex_init(&locks[k], 0);
    pthread_create(&t, 0, worker, 0);
    pthread_create(&t, 0, checker, 0);
    return 0;
}
