/* A counter that every worker increments and decrements again under one lock. Whoever takes
 * the lock sees the counter at 0, however many workers run.
 *
 * Expected: safe.
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(count == 0); // expect: safe [coarsen]
    count = count + 1;
    count = count - 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
