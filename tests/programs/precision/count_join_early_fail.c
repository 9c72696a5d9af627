/* Failing twin of count_join.c: main reads the count before joining the second writer, and a
   writer whose lock another writer does not take may interleave its read and write. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
int hits, more;
void *hit(void *arg) {
    pthread_mutex_lock(&m);
    hits = hits + 2;
    more = more + 1;
    pthread_mutex_unlock(&m);
    return 0;
}
void *hit_other(void *arg) {
    pthread_mutex_lock(&other);
    more = more + 1;
    pthread_mutex_unlock(&other);
    return 0;
}
int main(void) {
    pthread_t c, d, e;
    hits = 1;
    pthread_create(&c, 0, hit, 0);
    pthread_create(&d, 0, hit, 0);
    pthread_create(&e, 0, hit_other, 0);
    pthread_join(c, 0);
    __VERIFIER_assert(hits == 5); // expect: violated
    pthread_join(d, 0);
    pthread_join(e, 0);
    __VERIFIER_assert(more == 3); // expect: violated
    return 0;
}
