#include <pthread.h>
#include <assert.h>

int flag0 = 0, flag1 = 0, turn = 0, inside = 0;

void *t0(void *arg) {
    while (1) {
        flag0 = 1;
        turn = 1;
        while (flag1 == 1 && turn == 1) {}
        inside = inside + 1;
        assert(inside == 1); // expect: safe
        inside = inside - 1;
        flag0 = 0;
    }
    return 0;
}

void *t1(void *arg) {
    while (1) {
        flag1 = 1;
        turn = 0;
        while (flag0 == 1 && turn == 0) {}
        inside = inside + 1;
        assert(inside == 1); // expect: safe
        inside = inside - 1;
        flag1 = 0;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    return 0;
}
