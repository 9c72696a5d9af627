// Not a counted loop: the loop variable starts at an unknown value, so the loop may run
// more than 3 times.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *worker(void *a) {
  int i = __VERIFIER_nondet_int();
  for (; i < 3; i++) x = x + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(x <= 3);
  return 0;
}
