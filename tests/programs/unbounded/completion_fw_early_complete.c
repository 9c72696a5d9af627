// Completions: a loader thread (started once by main) reads the firmware, records its size,
// and then calls `complete_all(&fw_loaded)`; clients, in any number of threads, call
// `wait_for_completion(&fw_loaded)` before they use the size. The completion is written in the
// program: a `done` count under a mutex, with a condition variable waited on in a `while`.
// Twin of completion_fw.c: the loader completes before it records the size.
// Truth: the loader sets `done` and is preempted before its store of the size; a waiting client
// wakes up, reads `dev.fw_size == 0`, and the assertion fails.
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
    complete_all(&fw_loaded);
    dev.fw_size = 128;
    return 0;
}

void *client(void *arg) {
    wait_for_completion(&fw_loaded);
    __VERIFIER_assert(dev.fw_size == 128); // expect: violated
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, loader, 0);
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
