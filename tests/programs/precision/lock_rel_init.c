/* Pattern 6 with an initialisation: `main` fills every entry without its lock before any thread
   exists; afterwards every access takes the entry's lock. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct entry { pthread_mutex_t m; int refs; } cache[4];
void *worker(void *arg) {
    struct entry *e = arg;
    pthread_mutex_lock(&e->m);
    e->refs++;
    e->refs--;
    __VERIFIER_assert(e->refs <= 1); // expect: safe [coarsen]
    pthread_mutex_unlock(&e->m);
    return 0;
}
int main(void) {
    pthread_t t;
    for (int i = 0; i < 4; i++) {
        pthread_mutex_init(&cache[i].m, 0);
        cache[i].refs = 1;
    }
    for (int i = 0; i < 4; i++) {
        pthread_create(&t, 0, worker, &cache[i]);
        pthread_create(&t, 0, worker, &cache[i]);
    }
    return 0;
}
