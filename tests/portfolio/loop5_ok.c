// A counted loop of 5 iterations in a thread: after the join, x is exactly 10.
#include <pthread.h>
#include <assert.h>
int x;
void *adder(void *a) {
  for (int i = 0; i < 5; i++) x = x + 2;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, adder, 0);
  pthread_join(t, 0);
  assert(x == 10);
  return 0;
}
