#include <assert.h>
#include <pthread.h>

// GCC's atomic built-ins add to a pointer in bytes, unscaled: `__sync_fetch_and_add(&p, 4)`
// on an `int *` moves it one element, not four (a wrong safe on the second assertion), and
// an odd count leaves it between elements.
int arr[4];
int *p = arr;
int *q = arr;

void *t(void *arg) {
    __sync_fetch_and_add(&p, 4);
    __atomic_add_fetch(&q, 8, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(p == arr + 1 && q == arr + 2); // expect: holds
    assert(p == arr + 4); // expect: violated
    return 0;
}
