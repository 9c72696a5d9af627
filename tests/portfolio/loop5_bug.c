// The failing twin: the assertion is wrong after all 5 iterations (x is 10, not 8).
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
  assert(x == 8);
  return 0;
}
