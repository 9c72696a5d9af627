// The twin of join_detached.c without a join: a detached thread alone is modelled (it runs
// or not, and nobody waits for it), so the analysis goes on, and the second assertion, which
// fails when main checks before the thread writes, is found.
#include <assert.h>
#include <pthread.h>
int x;
void *t(void *a) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_detach(a);
  assert(x == 0 || x == 1); // expect: holds
  assert(x == 1); // expect: fails
  return 0;
}
