/* Failing twin of count_join.c: with constant bounds `< 10` and `<= 10` the loops run 10 and 11
   times, so the count is 63, not 60. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ticks;
void *tick(void *arg) {
    for (int k = 0; k < 10; k++) {
        pthread_mutex_lock(&m);
        ticks = ticks + 3;
        pthread_mutex_unlock(&m);
    }
    return 0;
}
void *tick_more(void *arg) {
    for (int k = 0; k <= 10; k++) {
        pthread_mutex_lock(&m);
        ticks = ticks + 3;
        pthread_mutex_unlock(&m);
    }
    return 0;
}
int main(void) {
    pthread_t e, f;
    pthread_create(&e, 0, tick, 0);
    pthread_create(&f, 0, tick_more, 0);
    pthread_join(e, 0);
    pthread_join(f, 0);
    __VERIFIER_assert(ticks == 60); // expect: violated
    __VERIFIER_assert(ticks == 63); // expect: safe [coarsen]
    return 0;
}
