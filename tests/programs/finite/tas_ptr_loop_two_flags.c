#include <pthread.h>
#include <assert.h>

// tas_ptr_loop.c where each round a worker takes one of two flags: two workers holding
// different flags are inside at once.
extern int __VERIFIER_nondet_int(void);
int busy = 0, spare = 0;
int count = 0;

void __VERIFIER_atomic_swap_in(int *flag, int *old) {
    *old = *flag;
    *flag = 1;
}

void *worker(void *arg) {
    int got;
    while (1) {
        int *flag = &busy;
        if (__VERIFIER_nondet_int())
            flag = &spare;
        __VERIFIER_atomic_swap_in(flag, &got);
        while (got == 1) {
            __VERIFIER_atomic_swap_in(flag, &got);
        }
        count = count + 1;
        assert(count == 1); // expect: fails
        count = count - 1;
        *flag = 0;
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
