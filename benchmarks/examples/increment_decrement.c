/* DUET's Figure 2 (Farzan & Kincaid, POPL'12): any number of threads increment `c`, any
 * number assert on it. The increments make c grow without bound, so `c >= 0` holds and
 * `c <= 0` does not.
 *
 * Expected: `c >= 0` safe; `c <= 0` not provable (it fails once an increment has run).
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);

int c = 0;

void *incrementer(void *arg) {
    int incr = 1;
    c = c + incr;
    return 0;
}

void *checker(void *arg) {
    __VERIFIER_assert(c >= 0); // expect: safe [coarsen]
    __VERIFIER_assert(c <= 0); // expect: violated
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        pthread_create(&t, 0, incrementer, 0);
        pthread_create(&t, 0, checker, 0);
    }
    return 0;
}
