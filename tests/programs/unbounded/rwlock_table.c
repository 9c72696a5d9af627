// A reader/writer lock from a mutex and a reader count: readers register under the mutex and
// read without it; a writer takes the mutex, waits (letting the mutex go and taking it again)
// until no reader is registered, and keeps the mutex while it writes. The protected table has
// two fields a writer keeps equal. Readers and writers run in any number of threads.
// Truth: `rw.readers` changes only under `rw.lock`, and every reader's decrement follows its
// own increment, so `rw.readers` equals the number of readers between read_lock and
// read_unlock (in particular it is never negative). A writer leaves its wait loop holding the
// lock with `rw.readers == 0` and keeps the lock until it has written both fields, so no reader
// can register meanwhile; a registered reader therefore never overlaps a writer's stores, and
// reads equal fields: the assertion holds for every thread count.
// Today: the proof needs `rw.readers == (readers registered)`, a count of threads, which COARSEN
// does not have (issue 37 item 2): a writer's stores of `tab.a` and `tab.b` flow to the reader's
// loads; bounded-safe.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

static struct rwlock {
    pthread_mutex_t lock;
    int readers;
} rw = {PTHREAD_MUTEX_INITIALIZER, 0};

static struct table {
    int a;
    int b;
} tab;

static void read_lock(void) {
    pthread_mutex_lock(&rw.lock);
    rw.readers = rw.readers + 1;
    pthread_mutex_unlock(&rw.lock);
}

static void read_unlock(void) {
    pthread_mutex_lock(&rw.lock);
    rw.readers = rw.readers - 1;
    pthread_mutex_unlock(&rw.lock);
}

static void write_lock(void) {
    pthread_mutex_lock(&rw.lock);
    while (rw.readers > 0) {
        pthread_mutex_unlock(&rw.lock);
        pthread_mutex_lock(&rw.lock);
    }
}

static void write_unlock(void) {
    pthread_mutex_unlock(&rw.lock);
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        if (__VERIFIER_nondet_int()) {
            read_lock();
            int a = tab.a;
            int b = tab.b;
            __VERIFIER_assert(a == b); // expect: bounded-safe (holds; needs counting, see above)
            read_unlock();
        } else {
            int v = __VERIFIER_nondet_int();
            write_lock();
            tab.a = v;
            tab.b = v;
            write_unlock();
        }
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
