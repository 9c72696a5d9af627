/* Pattern 1: a pointer to a struct filled before the create. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct job { int lo, hi; };
void *child(void *arg) {
    struct job *j = arg;
    __VERIFIER_assert(j->lo == 3 && j->hi == 7); // expect: safe [coarsen]
    return 0;
}
int main(void) {
    pthread_t t;
    struct job j;
    j.lo = 3;
    j.hi = 7;
    pthread_create(&t, 0, child, &j);
    pthread_join(t, 0);
    return 0;
}
