/* A read through NULL crashes the program. The thread reads `p` before main may have set it:
 * then there is no execution to go on with, and where it goes on `v` is 5, so the first
 * assertion holds. Memory reading 0 at NULL would make it fail. The second assertion fails
 * once the thread has read 5. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int *p;
int g = 5, seen;
void *t(void *a) {
    int v = *p;
    __VERIFIER_assert(v != 0); // expect: holds
    seen = v;
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    p = &g;
    pthread_join(h, 0);
    __VERIFIER_assert(seen != 5); // expect: violated
    return 0;
}
