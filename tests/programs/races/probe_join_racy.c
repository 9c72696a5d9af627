// Twin of probe_join.c: main joins after a failed probe only, so after a successful one the
// worker may still run when main writes.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int shared;
pthread_t worker_id;
void *worker(void *arg) {
  shared = shared + 1;
  return 0;
}
int probe(void) {
  if (__VERIFIER_nondet_int())
    return -1;
  pthread_create(&worker_id, 0, worker, 0);
  return 0;
}
int main(void) {
  int ret = probe();
  if (ret == -1)
    pthread_join(worker_id, 0);
  shared = -1;
  return 0;
}
