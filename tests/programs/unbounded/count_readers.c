// A reader/writer lock built from a mutex and a reader count: readers register under the
// mutex, read without it, and unregister; the writer writes only under the mutex and only
// when no reader is registered.
// Truth: `readers` changes only under `m`, by +1 when a reader enters and -1 when it leaves,
// so it equals the number of readers between the two; a reader there sees `readers >= 1`, and
// the writer, which holds `m` while it writes, found `readers == 0`: it cannot be writing
// while a reader reads. Both assertions hold for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int readers;
int writing;

void *reader(void *arg) {
    pthread_mutex_lock(&m);
    readers++;
    pthread_mutex_unlock(&m);
    __VERIFIER_assert(readers >= 1); // expect: safe [coarsen]
    __VERIFIER_assert(!writing); // expect: safe [coarsen]
    pthread_mutex_lock(&m);
    readers--;
    pthread_mutex_unlock(&m);
    return 0;
}

void *writer(void *arg) {
    pthread_mutex_lock(&m);
    if (readers == 0) {
        writing = 1;
        writing = 0;
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        if (__VERIFIER_nondet_int())
            pthread_create(&t, 0, reader, 0);
        else
            pthread_create(&t, 0, writer, 0);
    }
    return 0;
}
