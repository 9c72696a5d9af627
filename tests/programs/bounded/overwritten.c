/* A read must copy the last write to its location before it, never one overwritten in
 * between. The writer stores x twice and then raises a flag; main reads the flag, then x.
 *
 * - default: x = 1; x = 2; flag = 1. Once the flag is up, x is 2: safe.
 * - -DLATE (the failing twin): x = 1; flag = 1; x = 2. Main can read x = 1: violated.
 * - -DATOMIC: the writer's two stores of x are one atomic unit, so no read sees the first
 *   (safe); with -DATOMIC -DSPLIT they are two units and a read between them sees 1
 *   (violated).
 *
 * Expected: safe by default and with -DATOMIC; violated with -DLATE and -DATOMIC -DSPLIT.
 */
#include <pthread.h>
#include <assert.h>

int x, flag;

#ifdef ATOMIC
void __VERIFIER_atomic_both(void) {
    x = 1;
#ifdef SPLIT
}
void __VERIFIER_atomic_second(void) {
#endif
    x = 2;
}
#endif

void *writer(void *arg) {
#ifdef ATOMIC
#ifdef SPLIT
    __VERIFIER_atomic_both();
    __VERIFIER_atomic_second();
#else
    __VERIFIER_atomic_both();
#endif
    flag = 1;
#elif defined(LATE)
    x = 1;
    flag = 1;
    x = 2;
#else
    x = 1;
    x = 2;
    flag = 1;
#endif
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
#ifdef ATOMIC
    int v = x;
    assert(v != 1);
#else
    if (flag == 1) {
        int v = x;
        assert(v == 2); // expect: safe
    }
#endif
    return 0;
}
