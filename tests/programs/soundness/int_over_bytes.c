#include <assert.h>
#include <pthread.h>

// An int lvalue over a char array covers four bytes in C and one slot in the memory model:
// the write landed in b[0] alone (a wrong violated on the first assertion, a wrong safe on
// the second).
unsigned char b[8];

void *t(void *arg) {
    *(unsigned int *)b = 0x0201;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(b[0] == 1 && b[1] == 2); // expect: unknown (little-endian)
    assert(b[1] == 0); // expect: unknown
    return 0;
}
