#include <pthread.h>
int x;
void *worker(void *arg) { x = 1; return 0; }
void *once(void *arg) { x = 2; return 0; }
int main(void) {
    pthread_t t;
    for (int i = 0; i < 3; i++) pthread_create(&t, 0, worker, 0);
    pthread_create(&t, 0, once, 0);
    pthread_join(t, 0);
    return 0;
}
