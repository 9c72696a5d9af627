/* Pattern 6: a lock in each entry of an array of structs, taken through a pointer to the entry
   (a summary cell: every entry's `refs` is one abstract location). Inside the entry's lock the
   count leaves 0 and comes back; a thread holding the same entry's lock sees only 0. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
struct entry { int refs; pthread_mutex_t m; } cache[4];
void touch(struct entry *e) {
    pthread_mutex_lock(&e->m);
    if (__VERIFIER_nondet_int()) {
        pthread_mutex_lock(&g);
        e->refs++;
        pthread_mutex_unlock(&g);
        pthread_mutex_lock(&g);
        e->refs--;
        pthread_mutex_unlock(&g);
    } else {
        __VERIFIER_assert(e->refs == 0); // expect: safe [coarsen]
    }
    pthread_mutex_unlock(&e->m);
}
void *worker(void *arg) {
    for (int i = 0; i < 4; i++)
        touch(&cache[i]);
    return 0;
}
int main(void) {
    pthread_t t;
    for (int i = 0; i < 4; i++)
        pthread_mutex_init(&cache[i].m, 0);
    for (int i = 0; i < 3; i++)
        pthread_create(&t, 0, worker, 0);
    touch(&cache[__VERIFIER_nondet_int() & 3]);
    return 0;
}
