#include <assert.h>
#include <pthread.h>
#include <string.h>

// `memcmp` compares bytes: x's is 0x01, y's 0x10, so x is below y although its first
// bit-field is the larger. The bit-fields' values were compared as if each were a byte.
struct s {
    unsigned a : 4, b : 4;
};
struct s x = {1, 0}, y = {0, 1};
int r;

void *t(void *p) {
    r = memcmp(&x, &y, 1);
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(r != 0); // expect: safe
    assert(r > 0);  // expect: fails
    return 0;
}
