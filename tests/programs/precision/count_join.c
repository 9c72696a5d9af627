/* Pattern 8: after joining every thread that changes a global by atomic increments, the global
   holds its value at the forks plus their net counts: equal loops that count up and down cancel,
   increments under the lock every writer holds add up, and a constant bound counts exactly. */
#include <pthread.h>
#include <stdlib.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int n, level, hits, ticks;
void *up(void *arg) {
    for (int i = 0; i < n; i++) {
        __VERIFIER_atomic_begin();
        level++;
        __VERIFIER_atomic_end();
    }
    return 0;
}
void *down(void *arg) {
    for (int j = 0; j < n; j++) {
        __VERIFIER_atomic_begin();
        if (level <= 0)
            abort();
        level--;
        __VERIFIER_atomic_end();
    }
    return 0;
}
void *hit(void *arg) {
    pthread_mutex_lock(&m);
    hits = hits + 2;
    pthread_mutex_unlock(&m);
    return 0;
}
void *tick(void *arg) {
    for (int k = 0; k < 10; k++) {
        pthread_mutex_lock(&m);
        ticks = ticks + 3;
        pthread_mutex_unlock(&m);
    }
    return 0;
}
int main(void) {
    pthread_t a, b, c, d, e, f;
    n = __VERIFIER_nondet_int();
    hits = 1;
    pthread_create(&a, 0, up, 0);
    pthread_create(&b, 0, down, 0);
    pthread_create(&c, 0, hit, 0);
    pthread_create(&d, 0, hit, 0);
    pthread_create(&e, 0, tick, 0);
    pthread_create(&f, 0, tick, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    pthread_join(e, 0);
    pthread_join(f, 0);
    __VERIFIER_assert(level == 0); // expect: safe [coarsen]
    __VERIFIER_assert(hits == 5); // expect: safe [coarsen]
    __VERIFIER_assert(ticks == 60); // expect: safe [coarsen]
    return 0;
}
