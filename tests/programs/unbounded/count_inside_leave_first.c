// Twin of count_inside.c: the client leaves the region (decrements) before its check.
// Truth: one client alone takes `inside` from 0 to 1 and back to 0, then fails its assertion.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int inside;

void *client(void *arg) {
    __atomic_fetch_add(&inside, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST);
    __VERIFIER_assert(inside >= 1); // expect: violated
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
