// Failing twin of shared_helper.c: the helper forgets the lock, so two threads' increments
// can be lost, and the final count can be less than the sum of the increments.
#include <pthread.h>
#include <assert.h>

int total;

int bump(int k) {
    int t = total;
    total = t + k;
    return total;
}

void *worker(void *arg) {
    bump(1);
    bump(2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    bump(3);
    bump(4);
    pthread_join(t, 0);
    assert(total == 10); // expect: violated
    return 0;
}
