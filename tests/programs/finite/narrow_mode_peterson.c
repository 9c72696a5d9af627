/* Peterson's protocol, entered only in mode 1. `main` sets the mode once a first thread
 * runs and before it creates the two workers, so every worker reads mode 1 and the protocol
 * always runs. The finite-state projection lets a created thread start at any moment, so on
 * its own it lets a worker read mode 0, skip the protocol and fail; COARSEN knows that the
 * workers read only mode 1 and cuts those steps. */
#include <pthread.h>
#include <assert.h>

int mode = 0;
int flag0 = 0, flag1 = 0, turn = 0, inside = 0;

void *idle(void *arg) { return 0; }

void *t0(void *arg) {
    if (mode == 1) {
        flag0 = 1;
        turn = 1;
        while (flag1 == 1 && turn == 1) {}
    }
    inside = inside + 1;
    assert(inside == 1); // expect: holds
    inside = inside - 1;
    flag0 = 0;
    return 0;
}

void *t1(void *arg) {
    if (mode == 1) {
        flag1 = 1;
        turn = 0;
        while (flag0 == 1 && turn == 0) {}
    }
    inside = inside + 1;
    assert(inside == 1); // expect: holds
    inside = inside - 1;
    flag1 = 0;
    return 0;
}

int main(void) {
    pthread_t i, a, b;
    pthread_create(&i, 0, idle, 0);
#ifndef MODE_LATE
    mode = 1;
#endif
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
#ifdef MODE_LATE
    mode = 1;
#endif
    return 0;
}
