/* Failing twin of lock_in_struct.c: the worker takes another struct's lock. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct dev { int state; pthread_mutex_t lock; };
struct dev the_dev, other;
void *worker(void *arg) {
    struct dev *d = arg;
    pthread_mutex_lock(&other.lock);
    d->state = 1;
    d->state = 0;
    pthread_mutex_unlock(&other.lock);
    return 0;
}
void *checker(void *arg) {
    struct dev *d = arg;
    pthread_mutex_lock(&d->lock);
    __VERIFIER_assert(d->state == 0); // expect: violated
    pthread_mutex_unlock(&d->lock);
    return 0;
}
int main(void) {
    pthread_t t1, t2;
    pthread_mutex_init(&the_dev.lock, 0);
    pthread_create(&t1, 0, worker, &the_dev);
    pthread_create(&t2, 0, checker, &the_dev);
    return 0;
}
