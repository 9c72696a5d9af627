// A recursive sum(n) called by several threads; each stores its result under a lock. The failing twin: sum(5) = 15 exceeds the bound asserted.
// argument is at most 5, so every result lies in [0, 15]: proved for every depth and thread.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int best = 0;
int low = 0;

int sum(int n) {
    if (n <= 0)
        return 0;
    return n + sum(n - 1);
}

void *worker(void *arg) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 5)
        return 0;
    int r = sum(n);
    pthread_mutex_lock(&m);
    if (r > best)
        best = r;
    if (r < low)
        low = r;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    pthread_mutex_lock(&m);
    assert(best <= 14); // expect: violated
    assert(low >= 0); // expect: safe [coarsen]
    pthread_mutex_unlock(&m);
    return 0;
}
