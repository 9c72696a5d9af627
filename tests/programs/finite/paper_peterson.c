#include <pthread.h>

// Peterson's algorithm as in Figure 2 of Malkis, Podelski and Rybalchenko (SAS 2007).
// One statement per line; the labels are the paper's. D is the critical section.
int x = 0, y = 0, turn = 0;

void *p1(void *arg) {
    while (1) {
        x = 1;
        turn = 1;
        while (y && turn) {}
        x = 0;
    }
    return 0;
}

void *p2(void *arg) {
    while (1) {
        y = 1;
        turn = 0;
        while (x && !turn) {}
        y = 0;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, p1, 0);
    pthread_create(&b, 0, p2, 0);
    return 0;
}
