/* The indexer of Flanagan & Godefroid (POPL 2005) in the form of Wang et al.'s Table 1 (FM 2009,
 * seed 001): NTHREADS threads insert MAX messages each into a 128-entry hash table, probing
 * with an atomic compare-and-swap. Thread `tid` inserts w = m * 11 + tid for m = 1..MAX at
 * h = w * 7 mod 128, so from 12 threads on some messages are produced twice and the second
 * insert of one collides. A failed compare-and-swap records the collision in the ghost array
 * `collided`, in the same atomic step.
 *
 * Table 1's property: no collision has happened on one entry. Here `main` checks it once, after
 * creating the threads and before joining them, so an observed run in which `main` checks
 * early passes, and the question is whether a reordering of its events fails:
 *   ENTRY = 33 (default, "indexer-Na"): the home of w = 23, inserted by threads 1 (m = 2) and
 *     12 (m = 1). From 13 threads on, every run collides there, so a passing run has a
 *     violating reordering.
 *   ENTRY = 77 ("indexer-N", -DENTRY=77): the home of w = 11 only, and no overflow reaches it.
 *     No reordering fails.
 */
#include <pthread.h>

#ifndef NTHREADS
#define NTHREADS 15
#endif
#define SIZE 128
#define MAX 4
#ifndef ENTRY
#define ENTRY 33
#endif

extern void reach_error(void);

int table[SIZE];
int collided[SIZE];

int __VERIFIER_atomic_cas(int *p, int cmp, int new, int *hit) {
    if (*p == cmp) {
        *p = new;
        return 1;
    }
    *hit = 1;
    return 0;
}

void *thread_routine(void *arg) {
    int tid = (int)(long)arg;
    int m = 0, w, h;
    while (1) {
        if (m < MAX) {
            m = m + 1;
            w = m * 11 + tid;
        } else {
            break;
        }
        h = (w * 7) % SIZE;
        while (__VERIFIER_atomic_cas(&table[h], 0, w, &collided[h]) == 0)
            h = (h + 1) % SIZE;
    }
    return 0;
}

#define CREATE(i) if (NTHREADS > i) pthread_create(&t[i], 0, thread_routine, (void *)(long)i)
#define JOIN(i) if (NTHREADS > i) pthread_join(t[i], 0)

int main(void) {
    pthread_t t[32];
    CREATE(0); CREATE(1); CREATE(2); CREATE(3); CREATE(4); CREATE(5); CREATE(6); CREATE(7);
    CREATE(8); CREATE(9); CREATE(10); CREATE(11); CREATE(12); CREATE(13); CREATE(14); CREATE(15);
    CREATE(16); CREATE(17); CREATE(18); CREATE(19); CREATE(20); CREATE(21); CREATE(22); CREATE(23);
    CREATE(24); CREATE(25); CREATE(26); CREATE(27); CREATE(28); CREATE(29); CREATE(30); CREATE(31);
    if (collided[ENTRY])
        reach_error();
    JOIN(0); JOIN(1); JOIN(2); JOIN(3); JOIN(4); JOIN(5); JOIN(6); JOIN(7);
    JOIN(8); JOIN(9); JOIN(10); JOIN(11); JOIN(12); JOIN(13); JOIN(14); JOIN(15);
    JOIN(16); JOIN(17); JOIN(18); JOIN(19); JOIN(20); JOIN(21); JOIN(22); JOIN(23);
    JOIN(24); JOIN(25); JOIN(26); JOIN(27); JOIN(28); JOIN(29); JOIN(30); JOIN(31);
    return 0;
}
