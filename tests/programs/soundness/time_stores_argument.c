/* `time(&a)` stores its result in `a` as well as returning it. Modelled as writing no memory,
 * `a` kept its 0: the first assertion was reported violated and the second, which fails,
 * safe. */
#include <pthread.h>
#include <time.h>
extern void __VERIFIER_assert(int);
time_t a, b;
void *t(void *arg) {
    b = time(&a);
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    __VERIFIER_assert(a == b); // expect: safe
    __VERIFIER_assert(a == 0); // expect: violated
    return 0;
}
