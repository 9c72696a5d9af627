#include <assert.h>
#include <pthread.h>

int g;

void *t(void *arg) {
    g = 1;
    return 0;
}

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    int v = g;
    assert(v >= 0); // expect: safe [coarsen]
    assert(v + 1 <= 1); // expect: violated
    return 0;
}
