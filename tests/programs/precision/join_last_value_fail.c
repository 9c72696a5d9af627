/* Failing twin of join_phase.c: what the joined thread wrote last is current after the join. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int g;
void *writer(void *arg) {
    g = 10;
    return 0;
}
int main(void) {
    pthread_t a;
    pthread_create(&a, 0, writer, 0);
    pthread_join(a, 0);
    __VERIFIER_assert(g == 0); // expect: violated
    return 0;
}
