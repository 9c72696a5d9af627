// Twin of count_readers.c: the reader registers with a plain `readers++`, without the mutex.
// Truth: an increment can be lost: a reader reads 0, a second reader registers (1), the first
// stores 1 over it, the second leaves (0). Then `readers` is 0 while the first is registered:
// it can find `readers == 0`, and the writer can set `writing` while it reads. Both assertions
// can fail.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int readers;
int writing;

void *reader(void *arg) {
    readers++;
    __VERIFIER_assert(readers >= 1); // expect: fails
    __VERIFIER_assert(!writing); // expect: fails
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
