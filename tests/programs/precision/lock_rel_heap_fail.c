/* Failing twin of lock_rel_heap.c: two devices from one allocation site; the thread locks the
   first and writes the second. */
#include <pthread.h>
#include <stdlib.h>
extern void __VERIFIER_assert(int);
struct dev { pthread_mutex_t lock; int state; struct dev *peer; };
void *worker(void *arg) {
    struct dev *d = arg;
    struct dev *p = d->peer;
    pthread_mutex_lock(&d->lock);
    p->state = 5;
    p->state = 0;
    pthread_mutex_unlock(&d->lock);
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
    pthread_t t;
    struct dev *a = 0, *b = 0;
    for (int i = 0; i < 2; i++) {
        struct dev *d = malloc(sizeof *d);
        if (!d) return 0;
        pthread_mutex_init(&d->lock, 0);
        pthread_mutex_lock(&d->lock);
        d->state = 0;
        pthread_mutex_unlock(&d->lock);
        d->peer = 0;
        if (i == 0) a = d; else b = d;
    }
    a->peer = b;
    pthread_create(&t, 0, worker, a);
    pthread_create(&t, 0, checker, b);
    return 0;
}
