#include <assert.h>
#include <pthread.h>

// A character pointer into a struct of ints moved by `+=` before the cast back: C moves it
// 4 bytes (to `b`), the memory model 4 slots (past the struct). Both verdicts were wrong.
struct S { int a; int b; } s;

void *t(void *arg) {
    char *p = (char *)&s;
    p += 4;
    *(int *)p = 7;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(s.b == 7 && s.a == 0); // expect: unknown
    assert(s.b != 7); // expect: unknown
    return 0;
}
