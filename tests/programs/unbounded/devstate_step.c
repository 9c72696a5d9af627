// A device state machine under a mutex: states 0..LAST, and a request may only move the state
// one step forward or reset it to 0. The request reads the state, checks the transition, and
// then (before it commits) asserts that the state it checked is still the current one.
// Truth: the check, the assertion and the update are in one critical section: `from` is a copy
// of `d.state` taken there, and a non-zero `to` passes the test only as `from + 1`, so the
// assertion `to == d.state + 1` holds; the state stays within [0, LAST]. Both assertions hold
// for every thread count.
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
        __VERIFIER_assert(to == d.state + 1); // expect: safe
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
