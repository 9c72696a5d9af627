/* The precise side of the mutex kinds: a normal mutex blocks its owner on a relock, so the
 * last assertion is unreachable and the first one can fail. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m;
int main(void) {
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_NORMAL);
    pthread_mutex_init(&m, &at);
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assert(x != 7); // expect: violated
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    __VERIFIER_assert(0); // expect: safe
    return 0;
}
