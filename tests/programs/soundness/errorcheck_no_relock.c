/* The precise side of error-checking mutexes: no thread locks one it holds, so the IR's mutex
 * is exact; the lock protects `g`, and only the unprotected read can see the write. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m;
int g = 0;
void *w(void *arg) {
    pthread_mutex_lock(&m);
    g = 1;
    g = 0;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &at);
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    pthread_mutex_lock(&m);
    __VERIFIER_assert(g == 0); // expect: safe
    pthread_mutex_unlock(&m);
    __VERIFIER_assert(g == 0); // expect: violated
    return 0;
}
