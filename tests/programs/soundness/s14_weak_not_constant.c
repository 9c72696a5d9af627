#include <assert.h>
#include <pthread.h>

// GCC makes `__atomic_compare_exchange_n` weak only when its weak argument is a non-zero
// constant; with a variable it is strong and cannot fail spuriously. A spurious failure was
// taken as possible.
int x = 5, e = 5, ok;
int w = 1;

void *t(void *p) {
    ok = __atomic_compare_exchange_n(&x, &e, 7, w, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(ok == 1 && x == 7); // expect: safe
    assert(e == 7);            // expect: violated
    return 0;
}
