// Condition variables with a `while`: a queue of at most MAX requests under a mutex. `put`
// waits on `not_full` while the queue is full, `get` on `not_empty` while it is empty; each
// re-tests its predicate after every wake-up. Clients put and get in any number of threads.
// Twin of condvar_queue.c: `get` waits with `if` instead of `while`, so it does not test the
// predicate again after it wakes up.
// Truth: with an empty queue a getter waits; pthread_cond_wait may return without a signal
// (spuriously, or after another getter took the item it was signalled for), and the getter then
// takes from an empty queue: `q.count == -1`, the second assertion fails. The first holds:
// the count starts at 0, gets only lower it, and a put adds 1 only to a count other than MAX,
// so by induction the count never exceeds MAX.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

#define MAX 4

static struct queue {
    pthread_mutex_t lock;
    pthread_cond_t not_full;
    pthread_cond_t not_empty;
    int count;
} q = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};

static void put(void) {
    pthread_mutex_lock(&q.lock);
    while (q.count == MAX)
        pthread_cond_wait(&q.not_full, &q.lock);
    q.count = q.count + 1;
    __VERIFIER_assert(q.count <= MAX); // expect: safe [coarsen]
    pthread_cond_signal(&q.not_empty);
    pthread_mutex_unlock(&q.lock);
}

static void get(void) {
    pthread_mutex_lock(&q.lock);
    if (q.count == 0)
        pthread_cond_wait(&q.not_empty, &q.lock);
    q.count = q.count - 1;
    __VERIFIER_assert(q.count >= 0); // expect: violated
    pthread_cond_signal(&q.not_full);
    pthread_mutex_unlock(&q.lock);
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        if (__VERIFIER_nondet_int())
            put();
        else
            get();
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
