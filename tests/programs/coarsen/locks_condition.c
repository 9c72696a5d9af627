/* A value written under a lock and restored before unlocking is never seen by a thread that
 * takes the same lock; a thread that does not take it may see it. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g = 0;
void *writer(void *arg) {
    pthread_mutex_lock(&m);
    g = 7;
    g = 0;
    pthread_mutex_unlock(&m);
    return 0;
}
void *locked_reader(void *arg) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(g == 0); // expect: safe
    pthread_mutex_unlock(&m);
    return 0;
}
void *racy_reader(void *arg) {
    __VERIFIER_assert(g == 0); // expect: unknown
    return 0;
}
int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        pthread_create(&t, 0, writer, 0);
        pthread_create(&t, 0, locked_reader, 0);
        pthread_create(&t, 0, racy_reader, 0);
    }
    return 0;
}
// PARAM: --engines coarsen
