#include <assert.h>
#include <pthread.h>

// `__atomic_test_and_set` sets only the byte at the address: in an int holding 256 that byte
// (the low one on x86) is 0, so it returns false and leaves 0x101. The whole int was taken
// as the flag.
int f = 256;
int r, after;

void *t(void *x) {
    r = __atomic_test_and_set(&f, __ATOMIC_SEQ_CST);
    after = f;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(r == 0 && after != 0); // expect: holds
    assert(after == 1);           // expect: fails
    return 0;
}
