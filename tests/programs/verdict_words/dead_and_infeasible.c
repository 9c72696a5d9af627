/* One assertion no thread reaches (dead code), one whose test is reached but whose failing
   branch no thread takes, and one proved by an invariant. */
#include <assert.h>
#include <pthread.h>
int flag = 0;
void *t(void *arg) {
    int f = flag;
    if (f > 10) {
        assert(f < 0); // expect: safe
    }
    assert(f <= 1); // expect: safe
    flag = 1;
    return 0;
}
int main(void) {
    pthread_t a;
    pthread_create(&a, 0, t, 0);
    return 0;
}
