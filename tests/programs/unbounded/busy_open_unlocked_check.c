// A device that admits at most MAX handles: `dev_open(want)` takes `want` handles under the
// mutex if they fit, or fails with -EBUSY; `dev_close(k)` gives back at most what is taken.
// Clients open and close in any number of threads.
// Twin of busy_open.c: the open checks for room before it takes the mutex (the check and the
// update are two critical sections apart).
// Truth: with d.users == 0, two clients wanting 3 both pass the check (0 + 3 <= 4), then both
// add 3 under the lock in turn: d.users reaches 6 and the open's assertion fails. The close
// still clamps under the lock, so its assertion holds.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

#define MAX 4
#define EBUSY 16

struct device {
    pthread_mutex_t lock;
    int users;
} d;

int dev_open(int want) {
    if (d.users + want > MAX)
        return -EBUSY;
    pthread_mutex_lock(&d.lock);
    d.users = d.users + want;
    __VERIFIER_assert(d.users <= MAX); // expect: violated
    pthread_mutex_unlock(&d.lock);
    return 0;
}

void dev_close(int k) {
    pthread_mutex_lock(&d.lock);
    if (k > d.users)
        k = d.users;
    d.users = d.users - k;
    __VERIFIER_assert(d.users >= 0); // expect: safe
    pthread_mutex_unlock(&d.lock);
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        int k = __VERIFIER_nondet_int();
        __VERIFIER_assume(k >= 1 && k <= MAX);
        if (dev_open(k) == 0)
            dev_close(k);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
