/* Failing twin of lock_rel_init.c: `main` writes the cell without its lock in a loop that
   creates threads, so from the second iteration on the write runs beside a worker that holds
   the lock. (The first cut of the pass took the loop body as code before any fork.) */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct dev { pthread_mutex_t m; int d; } the;
void *worker(void *arg) {
    struct dev *p = &the;
    pthread_mutex_lock(&p->m);
    p->d = 1;
    __VERIFIER_assert(p->d == 1); // expect: violated
    pthread_mutex_unlock(&p->m);
    return 0;
}
int main(void) {
    pthread_t t;
    struct dev *q = &the;
    for (int i = 0; i < 2; i++) {
        q->d = 0;
        pthread_create(&t, 0, worker, 0);
    }
    return 0;
}
