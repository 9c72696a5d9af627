/* Failing twin of lock_rel_init.c: `main` writes an entry without its lock once a thread
   exists. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct entry { pthread_mutex_t m; int refs; } cache[4];
void *worker(void *arg) {
    struct entry *e = arg;
    pthread_mutex_lock(&e->m);
    e->refs++;
    e->refs--;
    __VERIFIER_assert(e->refs <= 1); // expect: violated
    pthread_mutex_unlock(&e->m);
    return 0;
}
int main(void) {
    pthread_t t;
    for (int i = 0; i < 4; i++) {
        pthread_mutex_init(&cache[i].m, 0);
        cache[i].refs = 1;
    }
    pthread_create(&t, 0, worker, &cache[0]);
    cache[0].refs = 2;
    cache[0].refs = 1;
    return 0;
}
