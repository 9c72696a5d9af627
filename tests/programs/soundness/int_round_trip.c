#include <assert.h>
#include <pthread.h>

// A pointer turned into an integer and back lands on the same object. The alias model gave
// a pointer made from an integer unknown memory only, so the thread's write never reached
// `g` (a wrong safe on the second assertion).
int g;

void *t(void *arg) {
    unsigned long v = (unsigned long)&g;
    int *r = (int *)v;
    *r = 7;
    return 0;
}

int main(void) {
    g = 5;
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(g == 7); // expect: safe
    assert(g == 5); // expect: violated
    return 0;
}
