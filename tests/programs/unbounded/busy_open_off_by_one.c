// A device that admits at most MAX handles: `dev_open(want)` takes `want` handles under the
// mutex if they fit, or fails with -EBUSY; `dev_close(k)` gives back at most what is taken.
// Clients open and close in any number of threads.
// Twin of busy_open.c: the open's test uses `>=` on MAX + 1, the limit of a device with one
// handle more (`d.users + want >= MAX + 2`).
// Truth: it lets `d.users + want == MAX + 1` through: one client opening 4, then (while the
// first holds them) another opening 1, leaves d.users == 5 and the open's assertion fails. The
// close clamps under the lock, so its assertion holds.
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
    pthread_mutex_lock(&d.lock);
    if (d.users + want >= MAX + 2) {
        pthread_mutex_unlock(&d.lock);
        return -EBUSY;
    }
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
