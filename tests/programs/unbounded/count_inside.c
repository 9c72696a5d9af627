// An atomic_t-style count of the clients inside a region, changed only through atomic builtins.
// Truth: a client increments `inside` on entering and decrements it on leaving, each in one
// atomic step, so `inside` equals the number of clients in the region; a client in the region
// sees `inside >= 1` for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int inside;

void *client(void *arg) {
    __atomic_fetch_add(&inside, 1, __ATOMIC_SEQ_CST);
    __VERIFIER_assert(inside >= 1); // expect: safe [coarsen]
    __atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
