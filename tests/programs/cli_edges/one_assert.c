#include <assert.h>
#include <pthread.h>
int x;
void *t(void *arg) { x = 1; return 0; }
int main(void) {
    pthread_t id;
    pthread_create(&id, 0, t, 0);
    assert(x <= 1); // expect: safe
    return 0;
}
