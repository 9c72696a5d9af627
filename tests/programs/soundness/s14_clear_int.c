#include <assert.h>
#include <pthread.h>

// `__atomic_clear` clears only the byte at the address: 0x101 becomes 0x100 on x86. The whole
// int was cleared.
int f = 0x101;

void *t(void *x) {
    __atomic_clear(&f, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(f == 0x100); // expect: holds
    assert(f == 0x101); // expect: fails
    return 0;
}
