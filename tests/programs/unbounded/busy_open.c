// A device that admits at most MAX handles: `dev_open(want)` takes `want` handles under the
// mutex if they fit, or fails with -EBUSY; `dev_close(k)` gives back at most what is taken.
// Clients open and close in any number of threads.
// Truth: every update happens under `d.lock`. The open test `d.users + want > MAX` refuses
// unless `d.users + want <= MAX`, so the users never exceed MAX; the close clamps k to
// `d.users`, so they never drop below 0. Both assertions hold for every thread count.
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
    if (d.users + want > MAX) {
        pthread_mutex_unlock(&d.lock);
        return -EBUSY;
    }
    d.users = d.users + want;
    __VERIFIER_assert(d.users <= MAX); // expect: safe
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
