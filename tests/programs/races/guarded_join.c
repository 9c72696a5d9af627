// The worker exists only if `go` held, and main joins it under the same test of `go`, which
// nothing writes after its input: after the second test the worker has ended, or never ran.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int count;
void *worker(void *arg) {
  count = count + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int go = __VERIFIER_nondet_int();
  if (go)
    pthread_create(&t, 0, worker, 0);
  if (go)
    pthread_join(t, 0);
  else
    count = 5;
  count = count + 1;
  return 0;
}
