// Twin of guarded_join.c: main joins under a test of another input, so the worker may still
// run when main skips the join and increments the counter.
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
  int wait = __VERIFIER_nondet_int();
  if (go)
    pthread_create(&t, 0, worker, 0);
  if (wait)
    pthread_join(t, 0);
  count = count + 1;
  return 0;
}
