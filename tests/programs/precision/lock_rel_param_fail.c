/* Failing twin of lock_rel_param.c: a second thread on the same device takes no lock. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct dev { pthread_mutex_t lock; int state; int other; } devs[3];
void *worker(void *arg) {
    struct dev *d = arg;
    pthread_mutex_lock(&d->lock);
    __VERIFIER_assert(d->state == 0); // expect: violated
    pthread_mutex_unlock(&d->lock);
    return 0;
}
void *rogue(void *arg) {
    struct dev *d = arg;
    d->state = 5;
    d->state = 0;
    return 0;
}
int main(void) {
    pthread_t t;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_init(&devs[i].lock, 0);
        pthread_create(&t, 0, worker, &devs[i]);
        pthread_create(&t, 0, rogue, &devs[i]);
    }
    return 0;
}
