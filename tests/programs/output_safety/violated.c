#include <assert.h>
#include <pthread.h>
int x;
void *writer(void *arg) {
    x = 1;
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    assert(x == 0); // expect: violated
    return 0;
}
