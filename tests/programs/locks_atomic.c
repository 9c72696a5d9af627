#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;
void __VERIFIER_atomic_take(void) { flag = 1; }
void *t(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_atomic_take();
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t id;
    pthread_create(&id, 0, t, 0);
    if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m);
    return 0;
}
