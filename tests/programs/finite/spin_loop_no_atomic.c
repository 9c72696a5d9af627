#include <pthread.h>
#include <assert.h>

// spin_loop.c with a test-and-set that is not atomic: two threads may both see the lock free.
extern int __VERIFIER_nondet_int(void);
int lck = 0, inside = 0;

void *worker(void *arg) {
    while (lck != 0) {}
    lck = 1;
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
    lck = 0;
    return 0;
}

int main(void) {
    pthread_t t;
    int n = __VERIFIER_nondet_int();
    for (int i = 0; i < n; i++) pthread_create(&t, 0, worker, 0);
    return 0;
}
