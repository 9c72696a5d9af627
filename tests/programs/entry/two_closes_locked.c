// The twin of two_closes.c: the teardown runs under the driver's lock, so it holds for any
// number of concurrent closes.
#include <pthread.h>

pthread_mutex_t lock;
int closing;
int users;

void init(void) {
    closing = 0;
    users = 0;
}

int drv_open(void) {
    pthread_mutex_lock(&lock);
    users = users + 1;
    pthread_mutex_unlock(&lock);
    return 0;
}

int drv_close(void) {
    pthread_mutex_lock(&lock);
    closing = closing + 1;
    __VERIFIER_assert(closing == 1); // expect: safe
    closing = closing - 1;
    pthread_mutex_unlock(&lock);
    return 0;
}
// PARAM: --no-whole-program
