// Completions as the kernel counts them: `complete` adds 1 to `done` and wakes one waiter,
// `wait_for_completion` waits (condition variable, in a `while`) until `done` is positive and
// takes 1. A reset worker (started once by main) brings the device up, then completes once per
// pending request; clients, in any number of threads, wait for a completion before they use the
// device.
// Truth: `dev.state` is only ever written READY, by the worker, before any of its `complete`s.
// `done` starts at 0 and is changed only under its lock: raised by the worker after its store,
// and lowered by a waiter only after it has read `done != 0` (so after some `complete`, so
// after the store). A client that leaves `wait_for_completion` has read `done != 0`, so the
// store of READY came before, and nothing writes `dev.state` back: the assertion holds for
// every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

#define READY 2

struct completion {
    pthread_mutex_t lock;
    pthread_cond_t wait;
    unsigned int done;
};

static struct completion reset_done = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};

static struct device {
    int state;
} dev;

static void complete(struct completion *x) {
    pthread_mutex_lock(&x->lock);
    x->done++;
    pthread_cond_signal(&x->wait);
    pthread_mutex_unlock(&x->lock);
}

static void wait_for_completion(struct completion *x) {
    pthread_mutex_lock(&x->lock);
    while (!x->done)
        pthread_cond_wait(&x->wait, &x->lock);
    x->done--;
    pthread_mutex_unlock(&x->lock);
}

void *reset_worker(void *arg) {
    dev.state = READY;
    while (__VERIFIER_nondet_int())
        complete(&reset_done);
    return 0;
}

void *client(void *arg) {
    wait_for_completion(&reset_done);
    __VERIFIER_assert(dev.state == READY); // expect: safe [coarsen]
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reset_worker, 0);
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
