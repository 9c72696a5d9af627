/* Pattern 3: after joining the only writer, main's writes are the only values. */
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
    __VERIFIER_assert(g == 20); // expect: safe [coarsen]
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_join(a, 0);
    g = 20;
    pthread_create(&b, 0, reader, 0);
    return 0;
}
