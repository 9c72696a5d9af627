#include <pthread.h>
#include <assert.h>

// Each thread counts itself under a lock; the count stays below 3 because the program
// creates two threads (lock_count_loop.c creates any number, and it fails from three on).
int lck = 0, count = 0;

void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lck == 0); lck = 1; }
void __VERIFIER_atomic_release(void) { lck = 0; }

void *worker(void *arg) {
    __VERIFIER_atomic_acquire();
    count = count + 1;
    assert(count < 3); // expect: holds
    __VERIFIER_atomic_release();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    return 0;
}
