// A counting semaphore from a mutex and a counter: `down` waits (condition variable, in a
// `while`) until the count is positive and takes one; `up` gives one back. The device has N
// hardware slots; a client takes a slot between `down` and `up`, counting the slots in use
// under a second mutex. Clients run in any number of threads.
// Twin of sem_slots.c: the error path gives the slot back early and then once more at the end
// (a double `up`).
// Truth: `down` still takes 1 only from a positive count, so the first assertion holds. But one
// failed transfer raises `sem.count` to N + 1; then N + 1 clients get past `down` together and
// `dev.in_use` reaches N + 1: the second assertion fails (with N + 1 = 3 clients).
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
    __VERIFIER_assert(dev.in_use <= N); // expect: violated
    pthread_mutex_unlock(&dev.stat_lock);
    int err = __VERIFIER_nondet_int();
    if (err)
        up(&sem);
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
// The violation needs three clients (N + 1) and a failed transfer before them: a longer search
// than the runner's default keeps it found on a loaded machine.
// PARAM: --search-time 30
