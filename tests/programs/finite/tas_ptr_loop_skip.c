#include <pthread.h>
#include <assert.h>

// tas_ptr_loop.c where a worker may skip the lock: two workers can be inside at once.
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
        got = 0;
        if (__VERIFIER_nondet_int())
            __VERIFIER_atomic_swap_in(&busy, &got);
        while (got == 1) {
            __VERIFIER_atomic_swap_in(&busy, &got);
        }
        count = count + 1;
        assert(count == 1); // expect: fails
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
