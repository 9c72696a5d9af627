/* Failing twin of count_join.c: the increments hold no lock, so one may overwrite the other. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int hits;
void *hit(void *arg) {
    hits = hits + 2;
    return 0;
}
int main(void) {
    pthread_t c, d;
    hits = 1;
    pthread_create(&c, 0, hit, 0);
    pthread_create(&d, 0, hit, 0);
    pthread_join(c, 0);
    pthread_join(d, 0);
    __VERIFIER_assert(hits == 5); // expect: violated
    return 0;
}
