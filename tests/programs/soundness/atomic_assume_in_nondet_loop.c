// The same merge in a loop of unknown trip count: the bounded search answered
// `bounded-safe` at every bound although two iterations reach the failure.
#include <pthread.h>
#include <assert.h>

extern void abort(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

void assume_abort_if_not(int c) {
    if (!c)
        abort();
}

int g = 0, n = 0;

void *worker(void *arg) {
    int k = __VERIFIER_nondet_int();
    for (int i = 0; i < k; i++) {
        __VERIFIER_atomic_begin();
        assume_abort_if_not(g == 0);
        n = n + 1;
        __VERIFIER_atomic_end();
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(n >= 0); // expect: holds
    assert(n < 2); // expect: violated
    return 0;
}
