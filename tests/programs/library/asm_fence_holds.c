/* Compiler barriers and fences without operands order accesses, which every explored
 * interleaving keeps: they change no value. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int x, y;
void *t(void *arg) {
    x = 1;
    __asm__ __volatile__("" ::: "memory");
    y = 2;
    __asm__ __volatile__("mfence" ::: "memory");
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    __VERIFIER_assert(x == 1 && y == 2); // expect: safe
    return 0;
}
