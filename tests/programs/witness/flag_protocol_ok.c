/* The twin of flag_protocol_bug.c: the producer writes `data` before it raises `ready`, so
 * the consumer, once it sees the flag, reads the new data. The consumer counts its spins
 * in a local, so every spin is a new state and a search that lets it spin first runs it
 * thousands of times before the producer moves.
 *
 * Expected: never violated.
 */
#include <pthread.h>
extern void __VERIFIER_assert(int cond);

int data = 0;
int ready = 0;
int noise = 0;

void *busy(void *arg) {
    for (int i = 0; i < 1000000; i++) {
        noise = i;
    }
    return 0;
}

void *producer(void *arg) {
    data = 42;
    ready = 1;
    return 0;
}

void *consumer(void *arg) {
    int spins = 0;
    while (!ready) {
        spins++;
    }
    __VERIFIER_assert(data == 42); // expect: holds
    return 0;
}

int main(void) {
    pthread_t b, p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&b, 0, busy, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    pthread_join(b, 0);
    return 0;
}
// PARAM: --search-time 2
