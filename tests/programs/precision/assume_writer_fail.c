/* Pattern 4 guard: a thread's store stays visible to others after its own assume
   on the stored value (the assume is no writer, so the store must keep flowing). */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int g, flag;
void *writer(void *arg) {
    g = __VERIFIER_nondet_int();
    if (g > 5)
        flag = 1;
    return 0;
}
void *reader(void *arg) {
    __VERIFIER_assert(g <= 5); // expect: violated
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    return 0;
}
