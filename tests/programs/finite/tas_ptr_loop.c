#include <pthread.h>
#include <assert.h>

// A spin lock whose test-and-set takes the flag and the result through pointers, taken by
// workers created without bound; a counter of the workers inside stays at most 1 for every
// number of workers. The flag is only reached through `&busy`, so the finite-state engine
// must make those accesses direct to see the lock at all.
extern int __VERIFIER_nondet_int(void);
int busy = 0;
int count = 0;

void __VERIFIER_atomic_swap_in(int *flag, int *old) {
    *old = *flag;
    *flag = 1;
}

void *worker(void *arg) {
    int got;
    while (1) {
        __VERIFIER_atomic_swap_in(&busy, &got);
        while (got == 1) {
            __VERIFIER_atomic_swap_in(&busy, &got);
        }
        count = count + 1;
        assert(count == 1); // expect: safe
        count = count - 1;
        busy = 0;
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (1) {
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
