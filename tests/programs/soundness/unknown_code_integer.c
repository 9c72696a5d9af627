#include <assert.h>
#include <pthread.h>

// Code without a definition receives `g`'s address and may keep it in an integer field, which
// is then made a pointer: the pointer pointed to unknown memory only, so the thread's write
// never reached `g` (a wrong safe on the second assertion).
struct S {
    unsigned long v;
} s;
void store(struct S *s, int *p); // may set s->v = (unsigned long)p
int g;

void *t(void *arg) {
    *(int *)s.v = 7;
    return 0;
}

int main(void) {
    int k = 1;
    store(&s, &g);
    g = 5;
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(k == 1); // expect: holds
    assert(g == 5); // expect: fails (when `store` keeps the address)
    return 0;
}
