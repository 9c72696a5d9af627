#include <pthread.h>
#include <assert.h>

// tas_ptr_loop.c with a test-and-set that reads and sets in two steps: two workers may
// both read 0 before either sets the flag.
extern int __VERIFIER_nondet_int(void);
int busy = 0;
int count = 0;

void swap_in(int *flag, int *old) {
    *old = *flag;
    *flag = 1;
}

void *worker(void *arg) {
    int got;
    while (1) {
        swap_in(&busy, &got);
        while (got == 1) {
            swap_in(&busy, &got);
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
