/* An error-checking mutex returns EDEADLK to an owner that locks it again, instead of
 * blocking: the second assertion is reached and fails. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m;
int main(void) {
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &at);
    int first = pthread_mutex_lock(&m);
    __VERIFIER_assert(first == 0); // expect: holds
    int again = pthread_mutex_lock(&m);
    __VERIFIER_assert(again == 0); // expect: fails
    return 0;
}
