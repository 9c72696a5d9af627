// Twin of count_pending.c: main counts the job only after creating its worker.
// Truth: the worker may check before main's increment, and finds `pending == 0`.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

long pending;

void *worker(void *arg) {
    __VERIFIER_assert(pending > 0); // expect: violated
    __sync_fetch_and_sub(&pending, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        pthread_create(&t, 0, worker, 0);
        __sync_fetch_and_add(&pending, 1);
    }
    return 0;
}
