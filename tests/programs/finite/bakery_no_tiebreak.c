#include <pthread.h>
#include <assert.h>

// Broken bakery: equal tickets are not ordered by thread id, so two threads may enter.
// so no ticket exceeds 4.
#define N 2
int choosing[N];
int number[N];
int inside = 0;

void worker(int me) {
    for (int round = 0; round < 2; round++) {
        choosing[me] = 1;
        int max = 0;
        for (int j = 0; j < N; j++) {
            int t = number[j];
            if (t > max) max = t;
        }
        number[me] = max + 1;
        choosing[me] = 0;
        for (int j = 0; j < N; j++) {
            while (choosing[j]) {}
            while (1) {
                int tj = number[j];
                int tm = number[me];
                if (tj == 0 || tj > tm || (tj == tm)) break;
            }
        }
        inside = inside + 1;
        assert(inside == 1); // expect: fails
        inside = inside - 1;
        number[me] = 0;
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
