// The failure needs `probe()` (defined nowhere) to return 1: the explicit-state search's
// interpreter reaches it only through the over-approximation of the call, which is no
// execution of the C program, so it must not report a violation.
#include <pthread.h>
#include <assert.h>

int probe(void);
int flag;

void *set(void *arg) {
    flag = probe();
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, set, 0);
    pthread_join(a, 0);
    assert(flag != 1); // expect: fails
    return 0;
}
