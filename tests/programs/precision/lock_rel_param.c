/* Pattern 6 through a parameter: each thread gets a device of a global array (one summary
   location per field) and keeps `state` 0 at every unlock of that device's lock. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct dev { pthread_mutex_t lock; int state; int other; } devs[3];
void *worker(void *arg) {
    struct dev *d = arg;
    pthread_mutex_lock(&d->lock);
    d->state = 5;
    d->other = d->state;
    d->state = 0;
    pthread_mutex_unlock(&d->lock);
    pthread_mutex_lock(&d->lock);
    __VERIFIER_assert(d->state == 0); // expect: safe [coarsen]
    pthread_mutex_unlock(&d->lock);
    return 0;
}
int main(void) {
    pthread_t t;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_init(&devs[i].lock, 0);
        pthread_create(&t, 0, worker, &devs[i]);
        pthread_create(&t, 0, worker, &devs[i]);
    }
    return 0;
}
