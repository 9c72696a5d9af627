/* Sinha & Wang (FSE 2010), Figure 1(a), as C: two threads read and write the shared x.
 * Run alone, each thread turns x = 0 into 1 and x = 1 into 3, so main sees 3 after
 * both; interleaved, both can read x = 0 before either writes.
 *
 * Expected: the assertion is violated (W1 R1 R1' R2 W2 R2' W2' R4 reads 2).
 */
#include <pthread.h>
#include <assert.h>

int x;

void *t(void *arg) {
    int tmp;
    if (x < 1) {
        tmp = x;
        x = tmp + 1;
    } else {
        tmp = x;
        x = tmp + 2;
    }
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    x = 0;
    pthread_create(&t1, 0, t, 0);
    pthread_create(&t2, 0, t, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(x == 3); // expect: violated
    return 0;
}
