/* glibc's static initializer for a recursive mutex: the owner's second lock succeeds, and
 * the second assertion fails. */
#define _GNU_SOURCE
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
int g = 0;
int main(void) {
    __VERIFIER_assert(g == 0); // expect: holds
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    g = 1;
    __VERIFIER_assert(g == 0); // expect: fails
    return 0;
}
