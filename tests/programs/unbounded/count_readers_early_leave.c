// Twin of count_readers.c: the reader unregisters before it reads.
// Truth: the reader's count holds while it is registered (`readers >= 1` there), but it reads
// `writing` after leaving: the writer can find `readers == 0` and set `writing` just then.
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
    pthread_mutex_lock(&m);
    readers--;
    pthread_mutex_unlock(&m);
    __VERIFIER_assert(!writing); // expect: violated
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
