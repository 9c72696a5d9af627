/* A recursive mutex lets its owner lock it again, so the second assertion is reached and
 * fails. Modelled as a plain mutex, the relock would block and the failure would be
 * unreachable: a wrong `safe`. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m;
int g = 0;
int main(void) {
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &at);
    __VERIFIER_assert(g == 0); // expect: holds
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    g = 1;
    __VERIFIER_assert(g == 0); // expect: fails
    return 0;
}
