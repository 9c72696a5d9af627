#include <assert.h>
#include <pthread.h>

// A function pointer declared without an initialiser and assigned later: calls through it
// reach the assigned functions only (a call through its indeterminate value is undefined).
int g;

void *worker(void *arg) {
    g = 1;
    return 0;
}

int add(int a, int b) { return a + b + 1; }

int main(void) {
    void *(*f)(void *);
    int (*pf)(int, int);
    pthread_t t;
    f = worker;
    pf = add;
    pthread_create(&t, 0, f, 0);
    pthread_join(t, 0);
    int r = pf(4, 3);
    assert(g == 1 && r == 8); // expect: safe [coarsen]
    return 0;
}
