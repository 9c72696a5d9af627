/* Threads created in a loop that runs far beyond any bound, then an assertion on a racy
 * counter: reaching the assertion needs the loop's further iterations summarised (their
 * threads never scheduled), which the replay then runs concretely.
 *
 * Expected: violated at bound 2.
 */
#include <pthread.h>
#include <assert.h>

int c;

void *inc(void *arg) {
    c = c + 1;
    return 0;
}

int main(void) {
    pthread_t ids[1000];
    for (int i = 0; i < 1000; i++)
        pthread_create(&ids[i], 0, inc, 0);
    assert(c <= 1); // expect: violated
    return 0;
}
