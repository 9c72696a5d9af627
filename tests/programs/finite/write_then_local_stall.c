// After writing a global, each thread stalls on its own locals: `a` spins forever on a local
// that never changes, `b` blocks on a local `assume`. Their writes are still visible, so both
// assertions of main can fail. The exact exploration runs local steps right after the step
// before them; a path of local steps that never reaches another step must not take the
// write with it.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);
int g = 0, h = 0;

void *a(void *arg) {
    int x = 0;
    g = 1;
    while (!x) {}
    return 0;
}

void *b(void *arg) {
    int y = 0;
    h = 1;
    __VERIFIER_assume(y);
    return 0;
}

int main(void) {
    pthread_t ta, tb;
    pthread_create(&ta, 0, a, 0);
    pthread_create(&tb, 0, b, 0);
    assert(g == 0); // expect: fails
    assert(h == 0); // expect: fails
    return 0;
}
