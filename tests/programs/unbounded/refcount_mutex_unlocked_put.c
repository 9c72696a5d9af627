// Twin of refcount_mutex.c: the worker's put decrements without taking the mutex.
// Truth: a put can overwrite main's concurrent get (it reads 2, main stores 3, it stores 1), so
// `refcnt` falls below the number of holders; the next worker's put then reaches 0 and sets
// `freed` while a third worker still holds its reference, and that worker's assertion fails.
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
    refcnt--;
    if (refcnt == 0)
        freed = 1;
}

void *worker(void *arg) {
    __VERIFIER_assert(!freed); // expect: fails
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
