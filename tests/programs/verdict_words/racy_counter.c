/* Two threads increment a counter without a lock; each then expects to see its own write:
   the other thread's increment may come in between, so `count == 1` fails. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int count = 0;
void *inc(void *arg) {
    int c = count;
    count = c + 1;
    __VERIFIER_assert(count == 1); // expect: violated
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    return 0;
}
