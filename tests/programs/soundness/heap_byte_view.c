#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

// An int written over heap bytes, its bytes read back. Heap memory kept one cell per accessed
// type, so the byte read met a cell the int write never touched (a wrong safe on the second
// assertion).
unsigned char *buf;

void *t(void *arg) {
    *(unsigned int *)buf = 0x0201;
    return 0;
}

int main(void) {
    buf = malloc(8);
    buf[0] = 0;
    buf[1] = 0;
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(buf[0] == 1 && buf[1] == 2); // expect: unknown (little-endian)
    assert(buf[0] == 0); // expect: unknown
    return 0;
}
