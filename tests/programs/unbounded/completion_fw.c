// Completions: a loader thread (started once by main) reads the firmware, records its size,
// and then calls `complete_all(&fw_loaded)`; clients, in any number of threads, call
// `wait_for_completion(&fw_loaded)` before they use the size. The completion is written in the
// program: a `done` count under a mutex, with a condition variable waited on in a `while`.
// Truth: `dev.fw_size` is only ever written 128, by the loader, before the loader's
// `complete_all` sets `done` (the only write of `done`). A client leaves `wait_for_completion`
// only after reading `done != 0` under the lock, so after the loader's store of the size, which
// nothing writes back: the assertion holds for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

#define UINT_MAX 4294967295U

struct completion {
    pthread_mutex_t lock;
    pthread_cond_t wait;
    unsigned int done;
};

static struct completion fw_loaded = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};

static struct device {
    int fw_size;
} dev;

static void complete_all(struct completion *x) {
    pthread_mutex_lock(&x->lock);
    x->done = UINT_MAX;
    pthread_cond_broadcast(&x->wait);
    pthread_mutex_unlock(&x->lock);
}

static void wait_for_completion(struct completion *x) {
    pthread_mutex_lock(&x->lock);
    while (!x->done)
        pthread_cond_wait(&x->wait, &x->lock);
    pthread_mutex_unlock(&x->lock);
}

void *loader(void *arg) {
    dev.fw_size = 128;
    complete_all(&fw_loaded);
    return 0;
}

void *client(void *arg) {
    wait_for_completion(&fw_loaded);
    __VERIFIER_assert(dev.fw_size == 128); // expect: safe [coarsen]
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, loader, 0);
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
