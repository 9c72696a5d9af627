// A device state machine under a mutex: states 0..LAST, and a request may only move the state
// one step forward or reset it to 0. The request reads the state, checks the transition, and
// then (before it commits) asserts that the state it checked is still the current one.
// Twin of devstate_step.c: the request checks the transition in one critical section and
// commits it in another (the lock is dropped in between, as if to sleep).
// Truth: two clients both read state 0 and both check `to == 1`; the first commits 1, then the
// second finds d.state == 1 and `to == d.state + 1` fails (two clients, one step each). The
// state still stays within [0, LAST] (every committed `to` passed `to <= LAST`).
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

#define LAST 3
#define EINVAL 22

struct device {
    pthread_mutex_t lock;
    int state;
} d;

int dev_step(int to) {
    pthread_mutex_lock(&d.lock);
    int from = d.state;
    if (to != 0) {
        if (to != from + 1 || to > LAST) {
            pthread_mutex_unlock(&d.lock);
            return -EINVAL;
        }
        pthread_mutex_unlock(&d.lock);
        pthread_mutex_lock(&d.lock);
        __VERIFIER_assert(to == d.state + 1); // expect: violated
    }
    d.state = to;
    __VERIFIER_assert(d.state <= LAST); // expect: safe
    pthread_mutex_unlock(&d.lock);
    return 0;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        int to = __VERIFIER_nondet_int();
        __VERIFIER_assume(to >= 0 && to <= 10);
        dev_step(to);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
