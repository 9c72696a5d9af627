#include <pthread.h>
#include <assert.h>

// Broken Szymanski: thread 1 does not wait for thread 0 before entering.
int flag[2];
int inside = 0;

void worker(int me) {
    int other = 1 - me;
    while (1) {
        flag[me] = 1;
        while (flag[other] >= 3) {}
        flag[me] = 3;
        if (flag[other] == 1) {
            flag[me] = 2;
            while (flag[other] != 4) {}
        }
        flag[me] = 4;
        if (me == 1) {
            /* does not wait for the lower thread */
        }
        inside = inside + 1;
        assert(inside == 1); // expect: fails
        inside = inside - 1;
        if (me == 0) {
            while (flag[other] == 2 || flag[other] == 3) {}
        }
        flag[me] = 0;
    }
}

void *t0(void *arg) { worker(0); return 0; }
void *t1(void *arg) { worker(1); return 0; }

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    return 0;
}
