#include <pthread.h>
#include <assert.h>

// tas_figure3.c with a test-and-set that is not atomic: two threads may both read 0 before
// either sets the lock.
int lck = 0, inside = 0;

int tas(void) {
    int old = lck;
    lck = 1;
    return old;
}

void *thr(void *arg) {
    while (tas()) {}
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
    lck = 0;
    while (tas()) {}
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
    lck = 0;
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, thr, 0);
    return 0;
}
