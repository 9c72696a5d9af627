// `teardown` is a static helper called only with the lock held. Taken as a thread of its own
// (every function a thread), it races with itself and gave a false `violated`; only
// `drv_release`, which no function calls, is an entry point.
#include <pthread.h>

pthread_mutex_t lock;
int busy;

void init(void) { busy = 0; }

static void teardown(void) {
    busy = busy + 1;
    __VERIFIER_assert(busy == 1); // expect: safe
    busy = busy - 1;
}

int drv_release(void) {
    pthread_mutex_lock(&lock);
    teardown();
    pthread_mutex_unlock(&lock);
    return 0;
}
// PARAM: --no-whole-program --parameterized
