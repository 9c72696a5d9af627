/* Failing twin of lock_rel_struct.c: one thread follows the discipline, the other counts
   without any lock. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
struct entry { int refs; pthread_mutex_t m; } cache[2];
void *worker(void *arg) {
    struct entry *e = &cache[1];
    e->refs++;
    e->refs--;
    return 0;
}
void *checker(void *arg) {
    struct entry *e = &cache[1];
    pthread_mutex_lock(&e->m);
    __VERIFIER_assert(e->refs == 0); // expect: violated
    pthread_mutex_unlock(&e->m);
    return 0;
}
int main(void) {
    pthread_t t1, t2;
    pthread_mutex_init(&cache[1].m, 0);
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, checker, 0);
    return 0;
}
