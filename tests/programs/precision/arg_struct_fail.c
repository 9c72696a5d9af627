/* Failing twin of arg_struct.c: main changes the struct while the thread runs. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct job { int lo, hi; };
void *child(void *arg) {
    struct job *j = arg;
    __VERIFIER_assert(j->lo == 3 && j->hi == 7); // expect: violated
    return 0;
}
int main(void) {
    pthread_t t;
    struct job j;
    j.lo = 3;
    j.hi = 7;
    pthread_create(&t, 0, child, &j);
    j.hi = 8;
    pthread_join(t, 0);
    return 0;
}
