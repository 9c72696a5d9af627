// A reader/writer lock from a mutex and a reader count: readers register under the mutex and
// read without it; a writer takes the mutex, waits (letting the mutex go and taking it again)
// until no reader is registered, and keeps the mutex while it writes. The protected table has
// two fields a writer keeps equal. Readers and writers run in any number of threads.
// Twin of rwlock_table.c: the writer waits for the readers with `if` instead of `while`: it
// lets the mutex go and takes it again once, and then writes whether or not readers remain.
// Truth: a writer can leave `write_lock` with a reader registered: a reader reads `tab.a`, a
// writer (past its single retry) stores both fields, and the reader reads the new `tab.b`:
// the assertion fails.
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
    if (rw.readers > 0) {
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
            __VERIFIER_assert(a == b); // expect: violated
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
