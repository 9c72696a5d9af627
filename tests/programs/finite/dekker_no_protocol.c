#include <pthread.h>
#include <assert.h>

// Thread 1 enters without the entry protocol: both may be inside.
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
        assert(inside == 1); // expect: fails
        inside = inside - 1;
        turn = 1;
        want0 = 0;
    }
    return 0;
}

void *t1(void *arg) {
    while (1) {
        inside = inside + 1;
        assert(inside == 1); // expect: fails
        inside = inside - 1;
        turn = 0;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    return 0;
}
