#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

// The converse of heap_byte_view.c: bytes written into heap memory, an int read over them.
unsigned char *buf;

void *t(void *arg) {
    buf[0] = 1;
    buf[1] = 2;
    return 0;
}

int main(void) {
    buf = malloc(8);
    *(unsigned int *)buf = 0;
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(*(unsigned int *)buf == 0x0201); // expect: unknown (little-endian)
    assert(*(unsigned int *)buf == 0); // expect: unknown
    return 0;
}
