#include <assert.h>
#include <pthread.h>
#include <string.h>

// A pointer's bytes copied into an integer, which is then made a pointer again: the copy
// between different layouts was a havoc of the integer, and a pointer made from it pointed
// to unknown memory only, so the thread's write never reached `g` (a wrong safe).
int g;
unsigned long v;

void *t(void *arg) {
    *(int *)v = 7;
    return 0;
}

int main(void) {
    int *p = &g;
    memcpy(&v, &p, sizeof p);
    g = 5;
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(g == 7); // expect: holds
    assert(g == 5); // expect: fails
    return 0;
}
