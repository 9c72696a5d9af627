/* `++` and `+=` on an `_Atomic` object are atomic read-modify-writes. Split into a read and a
 * write (and `atomic_int` declared as a plain `int`), two increments could lose one: the
 * first assertion was reported violated. */
#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_assert(int);
_Atomic int c;
atomic_int d;
void *t(void *arg) {
    c++;
    d += 2;
    return 0;
}
int main(void) {
    pthread_t h1, h2;
    pthread_create(&h1, 0, t, 0);
    pthread_create(&h2, 0, t, 0);
    pthread_join(h1, 0);
    pthread_join(h2, 0);
    __VERIFIER_assert(c == 2 && d == 4); // expect: safe
    __VERIFIER_assert(c != 2); // expect: violated
    return 0;
}
