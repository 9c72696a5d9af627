// A thread and main each add 1 to a shared counter 20 times, without a lock. The assertion
// fails when no update is lost: the whole thread runs, then main's loop (or the other way
// round). Both counted loops are unrolled exactly; the search finds it in the sequential round,
// where the full bound 1 (one clock per access) spent minutes.
#include <pthread.h>
#include <assert.h>
int total;
void *adder(void *arg) {
  int i, j;
  for (i = 0; i < 20; i++) {
    j = total;
    total = j + 1;
  }
  return 0;
}
int main(void) {
  pthread_t t;
  int i;
  pthread_create(&t, 0, adder, 0);
  for (i = 0; i < 20; i++)
    total = total + 1;
  pthread_join(t, 0);
  assert(total != 40);
  return 0;
}
