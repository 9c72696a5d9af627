// Thread b branches on the global flag: the arm taken when flag is set checks g. The pick
// between the two `assume`s stays open in the exact exploration until one of them runs; the
// failure needs the pick made after a sets flag and before a sets g.
#include <pthread.h>
#include <assert.h>

int g = 0, flag = 0;

void *a(void *arg) {
    flag = 1;
    g = 1;
    return 0;
}

void *b(void *arg) {
    if (flag) {
        assert(g == 0); // expect: violated
    }
    return 0;
}

int main(void) {
    pthread_t ta, tb;
    pthread_create(&ta, 0, a, 0);
    pthread_create(&tb, 0, b, 0);
    return 0;
}
