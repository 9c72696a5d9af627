// A thread may join the main thread, which returns once `main` ends with `pthread_exit` (the
// process lives on). The IR's join of `pthread_self()`'s value, which names no created
// thread, blocked for ever: `safe` for both assertions, though the second fails in every run.
#include <assert.h>
#include <pthread.h>
int x;
pthread_t main_thread;
void *t(void *a) {
  pthread_join(main_thread, 0);
  assert(x == 1); // expect: unknown
  assert(x == 2); // expect: unknown
  return 0;
}
int main(void) {
  main_thread = pthread_self();
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  x = 1;
  pthread_exit(0);
}
