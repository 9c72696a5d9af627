/* Locking through NULL crashes the program, so nothing reaches the first assertion (memory
 * that holds a free mutex at NULL would let the lock go on to it). The second assertion
 * fails: `mp` is NULL. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t *mp;
int main(void) {
    if (__VERIFIER_nondet_int()) {
        pthread_mutex_lock(mp);
        __VERIFIER_assert(0); // expect: holds
    }
    __VERIFIER_assert(mp != 0); // expect: violated
    return 0;
}
