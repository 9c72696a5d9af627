// Twin of count_semaphore.c: a client gives its slot back twice.
// Truth: one client takes a slot (avail 2) and gives back two (4); the next client takes one
// (3) and finds `avail == N` while it holds a slot, so the assertion fails.
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
        __VERIFIER_assert(avail <= N - 1); // expect: violated
        pthread_mutex_lock(&m);
        avail++;
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
