// A helper called from four sites in two threads. With a small --inline-limit every call
// enters one shared copy per thread; COARSEN must still prove the range under the lock.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;

int bump(int k) {
    int r;
    pthread_mutex_lock(&m);
    if (total <= 90)
        total = total + k;
    r = total;
    pthread_mutex_unlock(&m);
    return r;
}

void *worker(void *arg) {
    int a = bump(1);
    // Asserted before the next call: the shared copy's return joins its callers' states, so
    // a caller's local does not keep its value across a call (context-insensitive).
    assert(a >= 0 && a <= 94); // expect: safe [coarsen]
    bump(2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    bump(3);
    bump(4);
    pthread_mutex_lock(&m);
    assert(total <= 100); // expect: safe [coarsen]
    pthread_mutex_unlock(&m);
    return 0;
}
