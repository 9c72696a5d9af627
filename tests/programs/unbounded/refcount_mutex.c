// A reference count kept under a mutex (kref-style get and put), with a use check in the
// worker while it holds its reference.
// Truth: every change of `refcnt` happens under `lock`: +1 in main before it creates a worker,
// -1 when a worker puts its reference. Main keeps its own reference, so `refcnt == 1 +
// (workers still holding)`: a worker's put never reaches 0, `freed` is never set, and the
// worker's assertion holds for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int refcnt = 1;
int freed;

void get(void) {
    pthread_mutex_lock(&lock);
    refcnt++;
    pthread_mutex_unlock(&lock);
}

void put(void) {
    pthread_mutex_lock(&lock);
    refcnt--;
    if (refcnt == 0)
        freed = 1;
    pthread_mutex_unlock(&lock);
}

void *worker(void *arg) {
    __VERIFIER_assert(!freed); // expect: safe [coarsen]
    put();
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        get();
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
