// Twin of count_inside.c: the client enters with a plain `inside++`, not an atomic builtin.
// Truth: two clients read 0, both store 1 (one increment is lost), the first leaves (0), and
// the second, still inside, fails its assertion.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int inside;

void *client(void *arg) {
    inside++;
    __VERIFIER_assert(inside >= 1); // expect: fails
    __atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
