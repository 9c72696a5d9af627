/* Figure 1 with each thread's body under one lock: the threads run one after the other, so
 * main always sees x == 3.
 *
 * Expected: safe (the program has no loops and two threads, so the bounded exploration is
 * exhaustive).
 */
#include <pthread.h>
#include <assert.h>

int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t(void *arg) {
    int tmp;
    pthread_mutex_lock(&m);
    if (x < 1) {
        tmp = x;
        x = tmp + 1;
    } else {
        tmp = x;
        x = tmp + 2;
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    x = 0;
    pthread_create(&t1, 0, t, 0);
    pthread_create(&t2, 0, t, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(x == 3); // expect: safe
    return 0;
}
