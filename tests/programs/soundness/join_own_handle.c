// Glibc's join of the caller's own handle fails at once (EDEADLK) instead of blocking. The IR
// gives no thread its handle (`pthread_self` is any value), and a join of a handle that names
// no created thread blocks for ever, so nothing after the join was reachable: the bounded
// search called both assertions `safe` (exhaustive), though the second fails in every run.
#include <assert.h>
#include <pthread.h>
int x;
void *t(void *a) {
  x = 1;
  pthread_join(pthread_self(), 0);
  assert(x == 1); // expect: unknown
  assert(x == 2); // expect: unknown
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_join(a, 0);
  return 0;
}
