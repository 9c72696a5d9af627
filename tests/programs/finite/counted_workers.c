/* Workers created by a counted loop each add one to `x` under a lock; `main` waits until it
 * reads at least WORKERS_WAITED and asserts it read exactly that. It holds when the loop
 * creates exactly that many workers: for every number of workers it does not (a third would
 * push x past 2), so only the count of the threads the program creates proves it. */
#include <pthread.h>
#include <assert.h>

#ifndef WORKERS
#define WORKERS 2
#endif

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *w(void *arg) {
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++) pthread_create(&t[i], 0, w, 0);
    int v;
    do {
        pthread_mutex_lock(&m);
        v = x;
        pthread_mutex_unlock(&m);
    } while (v < 2);
    assert(v == 2); // expect: safe
    return 0;
}
