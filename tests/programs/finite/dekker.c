#include <pthread.h>
#include <assert.h>

// Dekker's algorithm for two threads; `inside` counts the threads in the critical section.
int want0 = 0, want1 = 0, turn = 0, inside = 0;

void *t0(void *arg) {
    while (1) {
        want0 = 1;
        while (want1 == 1) {
            if (turn != 0) {
                want0 = 0;
                while (turn != 0) {}
                want0 = 1;
            }
        }
        inside = inside + 1;
        assert(inside == 1); // expect: holds
        inside = inside - 1;
        turn = 1;
        want0 = 0;
    }
    return 0;
}

void *t1(void *arg) {
    while (1) {
        want1 = 1;
        while (want0 == 1) {
            if (turn != 1) {
                want1 = 0;
                while (turn != 1) {}
                want1 = 1;
            }
        }
        inside = inside + 1;
        assert(inside == 1); // expect: holds
        inside = inside - 1;
        turn = 0;
        want1 = 0;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    return 0;
}
