/* The same counter without the lock: two workers can each read 0 and both write 1, so the
 * count of finished increments is lost, and a worker can see the counter at 1.
 *
 * Expected: the assertion is violated (an interleaving of two workers reaches it).
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);

int count = 0;

void *worker(void *arg) {
    __VERIFIER_assert(count == 0); // expect: violated
    count = count + 1;
    count = count - 1;
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
