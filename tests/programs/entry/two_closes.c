// A character driver whose teardown is not serialised: one `close` at a time is fine, but
// two clients closing at once both enter the teardown. Under --no-whole-program every entry
// point is called by any number of clients, so this is not safe (its twin two_closes_locked.c
// is).
#include <pthread.h>

int closing;
int users;

void init(void) {
    closing = 0;
    users = 0;
}

int drv_open(void) {
    users = users + 1;
    return 0;
}

int drv_close(void) {
    closing = closing + 1;
    __VERIFIER_assert(closing == 1); // expect: violated (fails with two concurrent closes)
    closing = closing - 1;
    return 0;
}
// PARAM: --no-whole-program
