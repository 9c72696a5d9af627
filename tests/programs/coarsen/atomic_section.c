/* Inside an atomic section no other thread runs: the intermediate value 1 is never seen. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern int __VERIFIER_nondet_int(void);
int x, y;
void *writer(void *arg) {
    __VERIFIER_atomic_begin();
    x = 1;
    x = 0;
    __VERIFIER_atomic_end();
    y = 1;
    y = 0;
    return 0;
}
void *reader(void *arg) {
    __VERIFIER_assert(x == 0); // expect: safe
    __VERIFIER_assert(y == 0); // expect: unknown
    return 0;
}
int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        pthread_create(&t, 0, writer, 0);
        pthread_create(&t, 0, reader, 0);
    }
    return 0;
}
// PARAM: --engines coarsen
