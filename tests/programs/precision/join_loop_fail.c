/* Failing twin of join_phase.c: matching create and join loops are not claimed to join every
   instance (the writer may still run when main writes g). */
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
    pthread_t a[2], b;
    for (int i = 0; i < 2; i++)
        pthread_create(&a[i], 0, writer, 0);
    pthread_join(a[0], 0);
    g = 20;
    pthread_create(&b, 0, reader, 0);
    pthread_join(a[1], 0);
    return 0;
}
