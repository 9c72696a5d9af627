/* An `_Atomic` member, incremented through a pointer: the front-end does not follow which
 * lvalues designate it, so the file is not analysed (it was split into a read and a write:
 * the first assertion was reported violated). */
#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_assert(int);
struct C {
    atomic_int n;
} cnt;
void *t(void *arg) {
    struct C *p = arg;
    p->n++;
    return 0;
}
int main(void) {
    pthread_t h1, h2;
    pthread_create(&h1, 0, t, &cnt);
    pthread_create(&h2, 0, t, &cnt);
    pthread_join(h1, 0);
    pthread_join(h2, 0);
    __VERIFIER_assert(cnt.n == 2); // expect: unknown
    __VERIFIER_assert(cnt.n != 2); // expect: unknown
    return 0;
}
