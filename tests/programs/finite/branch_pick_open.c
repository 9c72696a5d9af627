// main picks a branch on a nondeterministic value, one arm checking g, the other writing it;
// thread a writes g. The exact exploration keeps main's pick open (it stands at both arms,
// one position), and must still see the arm whose assertion fails once a has run.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
int g = 0;

void *a(void *arg) {
    g = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, a, 0);
    if (__VERIFIER_nondet_int()) {
        assert(g == 0); // expect: violated
    } else {
        g = 2;
    }
    return 0;
}
