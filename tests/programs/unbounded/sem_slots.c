// A counting semaphore from a mutex and a counter: `down` waits (condition variable, in a
// `while`) until the count is positive and takes one; `up` gives one back. The device has N
// hardware slots; a client takes a slot between `down` and `up`, counting the slots in use
// under a second mutex. Clients run in any number of threads.
// Truth: `sem.count` changes only under `sem.lock`; `down` takes 1 only from a positive count,
// so `sem.count >= 0` always (first assertion). Every `up` follows its own thread's `down`, so
// `sem.count + (clients between down and up) == N`, and the clients between their increment
// and decrement of `dev.in_use` are among those: `dev.in_use <= N` (second assertion). Both hold
// for every thread count.
// Today: COARSEN proves the first (an interval fact: the decrement follows the failed test of the
// wait loop under the same hold of the lock). The second needs the count of the clients between
// `down` and `up`, which COARSEN does not have (thread counting is issue 37 item 2): the
// invariants bound neither `sem.count` from above nor `dev.in_use`; bounded-safe.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

#define N 2

struct semaphore {
    pthread_mutex_t lock;
    pthread_cond_t wait;
    int count;
};

static struct semaphore sem = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, N};

static struct device {
    pthread_mutex_t stat_lock;
    int in_use;
} dev = {PTHREAD_MUTEX_INITIALIZER, 0};

static void down(struct semaphore *s) {
    pthread_mutex_lock(&s->lock);
    while (s->count <= 0)
        pthread_cond_wait(&s->wait, &s->lock);
    s->count = s->count - 1;
    __VERIFIER_assert(s->count >= 0); // expect: safe [coarsen]
    pthread_mutex_unlock(&s->lock);
}

static void up(struct semaphore *s) {
    pthread_mutex_lock(&s->lock);
    s->count = s->count + 1;
    pthread_cond_signal(&s->wait);
    pthread_mutex_unlock(&s->lock);
}

static int dev_xfer(void) {
    down(&sem);
    pthread_mutex_lock(&dev.stat_lock);
    dev.in_use = dev.in_use + 1;
    __VERIFIER_assert(dev.in_use <= N); // expect: bounded-safe (holds; needs counting, see above)
    pthread_mutex_unlock(&dev.stat_lock);
    int err = __VERIFIER_nondet_int();
    pthread_mutex_lock(&dev.stat_lock);
    dev.in_use = dev.in_use - 1;
    pthread_mutex_unlock(&dev.stat_lock);
    up(&sem);
    return err;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int())
        dev_xfer();
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
