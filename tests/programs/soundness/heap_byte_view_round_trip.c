#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

// heap_byte_view.c with the byte pointer made from an integer: it still views the heap
// object the thread writes as an int.
unsigned *p;

void *t(void *arg) {
    *p = 0x0201;
    return 0;
}

int main(void) {
    p = malloc(8);
    *p = 0;
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    unsigned char *c = (unsigned char *)(unsigned long)p;
    assert(c[0] == 1 && c[1] == 2); // expect: holds (little-endian)
    assert(c[0] == 0); // expect: fails
    return 0;
}
