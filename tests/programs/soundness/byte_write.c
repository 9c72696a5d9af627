#include <assert.h>
#include <pthread.h>

// A write through `p[0]` of an `unsigned char *` over an int: the index made the alias model
// give it a byte-typed cell of its own, so the byte-view check missed it, and the bounded
// search stored the whole value (both assertions were `safe`).
unsigned int g = 0x100;

void *t(void *arg) {
    unsigned char *p = (unsigned char *)&g;
    p[0] = 5;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(g == 0x105); // expect: unknown (little-endian)
    assert(g == 5); // expect: unknown
    return 0;
}
