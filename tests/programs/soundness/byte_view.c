#include <assert.h>
#include <pthread.h>

// C lets a character lvalue read any object; the IR keeps one value per scalar, so reading
// `x` through `p` gave the whole int (300) and both engines drew wrong conclusions.
int x;

void *t(void *a) { return 0; }

int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    x = 300;
    unsigned char *p = (unsigned char *)&x;
    unsigned char c = *p;
    assert(c == 44); // expect: holds (little-endian)
    assert(c != 44); // expect: fails
    return 0;
}
