/* Each worker takes an identity in {0, 1} from its input and derives the other one. The
 * finite-state projection loses an input's value ("any value"), so on its own it cannot add
 * the two; COARSEN bounds the identity to {0, 1} where the worker derives the other, and the
 * projection splits the lost value into those two, each followed exactly. */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int turn;

void *worker(void *arg) {
    int me = __VERIFIER_nondet_int();
    if (me < 0 || me > 1) return 0;
#ifdef OTHER_INPUT
    int other = __VERIFIER_nondet_int();
    if (other < 0 || other > 1) return 0;
#else
    int other = 1 - me;
#endif
    turn = other;
    assert(me + other == 1); // expect: holds
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    return 0;
}
