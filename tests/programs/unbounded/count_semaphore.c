// A counting semaphore from a mutex and a count of free slots: a client takes a slot if one is
// free, uses it, and gives it back.
// Truth: `avail` changes only under `m`, by -1 when a client takes a slot and +1 when it gives
// it back, from N; so `avail == N - (clients holding a slot)`, and a client holding one sees
// `avail <= N - 1` for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

#define N 3

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int avail = N;

void *client(void *arg) {
    pthread_mutex_lock(&m);
    if (avail > 0) {
        avail--;
        pthread_mutex_unlock(&m);
        __VERIFIER_assert(avail <= N - 1); // expect: safe [coarsen]
        pthread_mutex_lock(&m);
        avail++;
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
