/* Failing twin of join_phase.c: main joins another thread, and the writer may still run. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
void *writer(void *arg) {
    pthread_mutex_lock(&m);
    g = 10;
    pthread_mutex_unlock(&m);
    return 0;
}
void *idle(void *arg) {
    return 0;
}
void *reader(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(g == 20); // expect: violated
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, idle, 0);
    pthread_join(b, 0);
    g = 20;
    pthread_create(&c, 0, reader, 0);
    return 0;
}
