// Two workers add 1 to a shared counter without a lock: the assertion fails only when one
// worker is preempted between its read and its write (a lost update). Running each worker
// without interruption, as the sequential round does, cannot fail it: that round must leave
// the verdict to bound 1, never call it safe.
#include <pthread.h>
#include <assert.h>
int total;
void *adder(void *arg) {
  int j = total;
  total = j + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, adder, 0);
  pthread_create(&b, 0, adder, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 2);
  return 0;
}
