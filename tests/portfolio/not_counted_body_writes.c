// Not a counted loop: the body may step the loop variable back, so the loop can run more
// than 5 times and x can exceed 5.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *worker(void *a) {
  for (int i = 0; i < 5; i++) {
    x = x + 1;
    if (__VERIFIER_nondet_int()) i = i - 1;
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(x <= 5);
  return 0;
}
