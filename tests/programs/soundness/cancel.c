#include <assert.h>
#include <pthread.h>

// Both engines said `safe` for the assertion that fails: `pthread_cancel` was an unmodelled
// call with no effect, so the thread always ran to its `return` and the join read 5, where
// the thread may stop at `pthread_testcancel` and the join read PTHREAD_CANCELED.
int g;

void *t(void *a) {
    pthread_testcancel();
    g = 1;
    return (void *)5;
}

int main(void) {
    pthread_t x;
    void *r;
    pthread_create(&x, 0, t, 0);
    pthread_cancel(x);
    pthread_join(x, &r);
    assert(r == PTHREAD_CANCELED || (r == (void *)5 && g == 1)); // expect: holds
    assert(r == (void *)5); // expect: fails
    return 0;
}
