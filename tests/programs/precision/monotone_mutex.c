/* A signed global that only grows, under a mutex: increments by 2 guarded by value < 1000,
   and main's own increment after its forks, under the same mutex and guarded by INT_MAX. A
   thread's lower bound on value, from its read and from its own write, survives every other
   thread's writes. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int value;
void *grow(void *arg) {
    int v, w;
    pthread_mutex_lock(&lock);
    v = value;
    if (value < 1000) {
        w = value;
        value = w + 2;
    }
    pthread_mutex_unlock(&lock);
    __VERIFIER_assert(value >= v); // expect: safe [coarsen]
    return 0;
}
int main(void) {
    pthread_t t;
    int u;
    value = 5;
    while (__VERIFIER_nondet_int()) pthread_create(&t, 0, grow, 0);
    pthread_mutex_lock(&lock);
    u = value;
    if (value != 2147483647) {
        u = value;
        value = u + 1;
    }
    pthread_mutex_unlock(&lock);
    __VERIFIER_assert(value >= u); // expect: safe [coarsen]
    return 0;
}
