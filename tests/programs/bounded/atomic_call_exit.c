/* A thread pushes, then checks inside an atomic section, through a call, that what it pushed
 * is there. The section's failing branch leaves the loop from inside the section, and the
 * unrolled iterations share that exit: the section's own read of `top` must still copy the
 * thread's write just before it (it once had no copy constraint, so the solver proposed
 * top == 0 there, a candidate no execution has, and the verdict was unknown).
 *
 * Expected: bounded-safe at bound 1 and 2; with RESET (the main thread may empty the stack
 * between the push and the check) violated.
 */
#include <pthread.h>
#include <assert.h>

int top;

int is_empty(void) {
    if (top == 0)
        return 1;
    else
        return 0;
}

void __VERIFIER_atomic_check(void) {
    assert(!is_empty()); // expect: holds
}

void *pusher(void *arg) {
    while (1) {
        top = 1;
        __VERIFIER_atomic_check();
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, pusher, 0);
#ifdef RESET
    top = 0;
#endif
    return 0;
}
