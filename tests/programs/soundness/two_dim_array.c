/* `int m[3][4]` is 3 rows of 4. Laid out as 4 rows of 3 (the array suffixes applied in the
 * wrong order), `m[0][3]` and `m[1][0]` shared a slot, as did `m[1][3]` and `m[2][0]`: the
 * first assertion was reported violated and the second, which fails, safe. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int m[3][4];
void *t(void *arg) {
    m[1][0] = 2;
    m[1][3] = 5;
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    __VERIFIER_assert(m[1][0] == 2 && m[2][0] == 0 && sizeof(m[0]) == 4 * sizeof(int)); // expect: safe
    __VERIFIER_assert(m[0][3] == 2); // expect: violated
    return 0;
}
