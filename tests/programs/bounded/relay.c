/* A relay of flags through a chain of threads: the last one fails only when every link has
 * passed the flag on before it runs, while the idle threads touch nothing the chain reads.
 * The bounded search first queries slices of the threads most relevant to the failure (2, 4,
 * ... instances): with LONG the chain has five links, more than the slice of 4, so the
 * failure is found only once the slices widen to the whole program. With BROKEN the first
 * link never passes the flag on: no interleaving fails, and `unsat` on a slice must not turn
 * into `safe` by itself (only the whole query may say so).
 */
#include <pthread.h>

extern void reach_error(void);

int s1, s2, s3, s4, idle;

void *first(void *x) {
#ifdef BROKEN
    s1 = 2;
#else
    s1 = 1;
#endif
    return 0;
}
void *second(void *x) {
    if (s1 == 1)
        s2 = 1;
    return 0;
}
void *third(void *x) {
    if (s2 == 1)
        s3 = 1;
    return 0;
}
#ifdef LONG
void *fourth(void *x) {
    if (s3 == 1)
        s4 = 1;
    return 0;
}
void *last(void *x) {
    if (s4 == 1)
        reach_error();
    return 0;
}
#else
void *last(void *x) {
    if (s3 == 1)
        reach_error(); // expect: violated
    return 0;
}
#endif
void *noise(void *x) {
    idle = idle + 1;
    return 0;
}

int main(void) {
    pthread_t t[8];
    pthread_create(&t[0], 0, noise, 0);
    pthread_create(&t[1], 0, first, 0);
    pthread_create(&t[2], 0, noise, 0);
    pthread_create(&t[3], 0, second, 0);
    pthread_create(&t[4], 0, third, 0);
#ifdef LONG
    pthread_create(&t[5], 0, fourth, 0);
#else
    pthread_create(&t[5], 0, noise, 0);
#endif
    pthread_create(&t[6], 0, noise, 0);
    pthread_create(&t[7], 0, last, 0);
    return 0;
}
