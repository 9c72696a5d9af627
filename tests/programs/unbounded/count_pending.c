// A count of pending jobs: main counts a job before it creates the worker that runs it, and
// the worker uncounts its job once done.
// Truth: `pending` changes only through atomic builtins, +1 in main before each creation and
// -1 when a worker finishes, so it equals the number of created workers not yet done; a worker
// still running sees `pending >= 1` for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

long pending;

void *worker(void *arg) {
    __VERIFIER_assert(pending > 0); // expect: safe [coarsen]
    __sync_fetch_and_sub(&pending, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        __sync_fetch_and_add(&pending, 1);
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
