// No assertion: `check --invariants=FILE` still runs COARSEN to its fixpoint and writes the
// invariant of every location.
#include <pthread.h>

int g;

void *writer(void *arg) {
    g = 5;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int x = 0;
    while (x < 10) {
        x = x + 1;
    }
    int y = g;
    return x + y;
}
