/* Failing twins of tests/programs/precision/monotone_mutex.c where the increments can wrap
   without undefined behaviour: a signed char computed in int and converted back (GCC wraps 127
   to -128), and an int incremented with no bound at all (its overflow is undefined, but nothing
   proves the guard either, so nothing is claimed). */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
signed char small;
int big;
void *grow(void *arg) {
    signed char v;
    int w;
    pthread_mutex_lock(&lock);
    v = small;
    small = v + 1;
    w = big;
    big = w + 1;
    pthread_mutex_unlock(&lock);
    __VERIFIER_assert(small > v); // expect: unknown
    __VERIFIER_assert(big > w); // expect: unknown
    return 0;
}
int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) pthread_create(&t, 0, grow, 0);
    return 0;
}
// PARAM: --engines coarsen
