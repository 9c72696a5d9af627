/* A thread gets a pointer to main's local through its argument and increments through it
 * without the lock main holds; a second global pointer aliases the same cell.
 *
 * Expected: violated (main can read the incremented value).
 */
#include <pthread.h>
#include <assert.h>

int g;
int *p1, *p2;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t(void *arg) {
    int *q = (int *)arg;
    *q = *q + 1;
    *p1 = *p1 + 1;
    return 0;
}

int main(void) {
    pthread_t id;
    int local = 0;
    p1 = p2 = &g;
    pthread_create(&id, 0, t, &local);
    pthread_mutex_lock(&m);
    assert(local == 0 || *p2 == 0); // expect: violated
    pthread_mutex_unlock(&m);
    pthread_join(id, 0);
    return 0;
}
