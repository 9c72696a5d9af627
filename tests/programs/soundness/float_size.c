/* `float` is 4 bytes and `long double` 16 under LP64; all three floating types were taken as
 * 8-byte `double`s, so `r` was 24: the first assertion was reported violated and the second,
 * which fails, safe. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct S {
    float f;
    int i;
} s;
unsigned long r;
void *t(void *arg) {
    r = sizeof(s) + sizeof(float);
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    __VERIFIER_assert(r == 12 && sizeof(double) == 8 && sizeof(long double) == 16); // expect: safe
    __VERIFIER_assert(r != 12); // expect: violated
    return 0;
}
