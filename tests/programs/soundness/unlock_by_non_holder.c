/* glibc's normal mutex is released by an unlock from a thread that does not hold it: a
 * thread that unlocks `m` twice may free it while another thread is inside, so a third one
 * enters beside it and the second assertion fails. `m2` is only released by its holders,
 * and the first assertion holds. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
int c, inside;
void *t(void *a) {
    pthread_mutex_lock(&m2);
    c = c + 1;
    __VERIFIER_assert(c == 1); // expect: safe
    c = c - 1;
    pthread_mutex_unlock(&m2);
    pthread_mutex_lock(&m);
    inside = inside + 1;
    __VERIFIER_assert(inside == 1); // expect: violated
    inside = inside - 1;
    pthread_mutex_unlock(&m);
    if (__VERIFIER_nondet_int())
        pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b, d;
    pthread_create(&a, 0, t, 0);
    pthread_create(&b, 0, t, 0);
    pthread_create(&d, 0, t, 0);
    return 0;
}
