/* N workers (N = 2..4, set with -DN=...) each add one to a shared counter; main joins them
 * and checks the total. With -DLOCKED the increment is under a mutex.
 *
 * Expected: violated without the lock (two workers read the same value), safe with it.
 */
#include <pthread.h>
#include <assert.h>

#ifndef N
#define N 2
#endif

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
#ifdef LOCKED
    pthread_mutex_lock(&m);
#endif
    counter = counter + 1;
#ifdef LOCKED
    pthread_mutex_unlock(&m);
#endif
    return 0;
}

int main(void) {
    pthread_t t1, t2, t3, t4;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
#if N >= 3
    pthread_create(&t3, 0, worker, 0);
#endif
#if N >= 4
    pthread_create(&t4, 0, worker, 0);
#endif
    pthread_join(t1, 0);
    pthread_join(t2, 0);
#if N >= 3
    pthread_join(t3, 0);
#endif
#if N >= 4
    pthread_join(t4, 0);
#endif
    assert(counter == N); // expect: violated
    return 0;
}
