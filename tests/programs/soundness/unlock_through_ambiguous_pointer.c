/* An unlock through a pointer that may designate either of two mutexes frees one of them,
 * whoever holds it: the thread holds only `m1`, so it may free `m2` while a `b` thread is
 * inside, and the second assertion fails. Two `a` threads still exclude each other on `m1`
 * (if one frees `m2` instead, `m1` stays held), so the first assertion holds. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
int c, inside;
void *a(void *x) {
    pthread_mutex_t *p = &m1;
    if (__VERIFIER_nondet_int())
        p = &m2;
    pthread_mutex_lock(&m1);
    c = c + 1;
    __VERIFIER_assert(c == 1); // expect: holds
    c = c - 1;
    pthread_mutex_unlock(p);
    return 0;
}
void *b(void *x) {
    pthread_mutex_lock(&m2);
    inside = inside + 1;
    __VERIFIER_assert(inside == 1); // expect: violated
    inside = inside - 1;
    pthread_mutex_unlock(&m2);
    return 0;
}
int main(void) {
    pthread_t h1, h2, h3, h4;
    pthread_create(&h1, 0, a, 0);
    pthread_create(&h2, 0, a, 0);
    pthread_create(&h3, 0, b, 0);
    pthread_create(&h4, 0, b, 0);
    return 0;
}
