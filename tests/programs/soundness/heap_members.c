#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

// Members of a heap record at different widths, each accessed through its member: the
// byte-view check must not reject them (heap_byte_view.c is the raw view it rejects).
struct S {
    int n;
    char name[4];
};
struct S *p;

void *t(void *arg) {
    p->n = 3;
    p->name[0] = 'a';
    return 0;
}

int main(void) {
    p = malloc(sizeof *p);
    p->n = 0;
    p->name[0] = 0;
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(p->n == 3 && p->name[0] == 'a'); // expect: safe
    assert(p->name[0] == 0); // expect: violated
    return 0;
}
