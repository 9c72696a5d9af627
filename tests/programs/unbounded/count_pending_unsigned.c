// Twin of count_pending.c with an unsigned count: the proof does not carry over, because an
// unsigned count wraps (an overflow is defined, not excluded).
// Truth: the assertion holds as long as fewer than 2^64 jobs are pending, but not for every
// thread count: with 2^64 workers created, `pending` wraps to 0 while they all still run. The
// tool cannot prove it, and no search reaches that many threads.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

unsigned long pending;

void *worker(void *arg) {
    __VERIFIER_assert(pending > 0); // expect: fails
    __sync_fetch_and_sub(&pending, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        __sync_fetch_and_add(&pending, 1);
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
// PARAM: --search-time 2
