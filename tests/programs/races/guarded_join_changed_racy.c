// Twin of guarded_join.c: `go` changes between the fork and the join, so the test before the
// join says nothing about whether the worker exists.
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
  go = !go;
  if (go)
    pthread_join(t, 0);
  else
    count = 5;
  count = count + 1;
  return 0;
}
