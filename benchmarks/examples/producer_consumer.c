/* DUET's Figure 1 (Farzan & Kincaid, POPL'12): producers and consumers share `counter`.
 * Any number of each run at once. Two producers never produce together (lock2), a consumer
 * may run beside a producer in batch mode. The assertion holds for every number of threads:
 * the value 0 stored in batch mode never reaches the consumer's decrement, because the
 * consumer only decrements after seeing counter > 0 under lock1.
 *
 * Expected: the assertion is safe.
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int cond);

pthread_mutex_t lock1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t lock2 = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *producer(void *arg) {
    int batch = __VERIFIER_nondet_int();
    pthread_mutex_lock(&lock2);
    pthread_mutex_lock(&lock1);
    if (counter > 0) {
        counter++;
        pthread_mutex_unlock(&lock1);
        pthread_mutex_unlock(&lock2);
        return 0;
    } else {
        pthread_mutex_unlock(&lock1);
        counter = 0;
        while (batch > 0) {
            counter++;
            batch--;
        }
        pthread_mutex_unlock(&lock2);
        return 0;
    }
}

void *consumer(void *arg) {
    while (1) {
        pthread_mutex_lock(&lock1);
        if (counter > 0) {
            break;
        }
        pthread_mutex_unlock(&lock1);
    }
    counter--;
    __VERIFIER_assert(counter >= 0); // expect: safe [coarsen]
    pthread_mutex_unlock(&lock1);
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int()) {
        if (__VERIFIER_nondet_int())
            pthread_create(&t, 0, producer, 0);
        else
            pthread_create(&t, 0, consumer, 0);
    }
    return 0;
}
