/* flag_protocol_bug.c without its unrelated thread and spin counter, small enough for
 * `predict`: an observed run spins on the flag before the producer moves.
 *
 * Expected: violated; the printed interleaving has no spin on the flag.
 */
#include <pthread.h>
extern void __VERIFIER_assert(int cond);

int data = 0;
int ready = 0;

void *producer(void *arg) {
    ready = 1;
    data = 42;
    return 0;
}

void *consumer(void *arg) {
    while (!ready) {
    }
    __VERIFIER_assert(data == 42); // expect: violated
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
