// A loop creates 100 threads; three of them are enough to lose an update so that a thread
// reads back less than it wrote after reading. The explicit-state search adds threads per
// template in rounds, and finds it without exploring the states of a hundred threads.
#include <pthread.h>
#include <assert.h>

int c;

void *bump(void *arg) {
    int x = c;
    c = x + 1;
    int y = c;
    assert(y > x); // expect: fails
    return 0;
}

int main(void) {
    pthread_t t[100];
    for (int k = 0; k < 100; k++)
        pthread_create(&t[k], 0, bump, 0);
    for (int k = 0; k < 100; k++)
        pthread_join(t[k], 0);
    return 0;
}
