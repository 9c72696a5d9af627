/* A thread stores a program input into g; main sees 5 when the input was 5.
 *
 * Expected: the assertion is violated; the witness fixes the input with a function_return
 * waypoint.
 */
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);

int g = 0;

void *worker(void *arg) {
    int k = __VERIFIER_nondet_int();
    if (k > 3 && k < 7) {
        g = k;
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    int y = g;
    __VERIFIER_assert(y != 5); // expect: violated
    return 0;
}
