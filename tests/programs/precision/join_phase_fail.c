/* Failing twin of join_phase.c: the writer is created in a loop and only one instance is joined. */
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
void *reader(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(g == 20); // expect: violated
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b;
    for (int i = 0; i < 2; i++)
        pthread_create(&a, 0, writer, 0);
    pthread_join(a, 0);
    g = 20;
    pthread_create(&b, 0, reader, 0);
    return 0;
}
