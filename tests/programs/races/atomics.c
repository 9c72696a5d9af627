// Every access to the counter is atomic: a __VERIFIER_atomic_ function or a GCC builtin.
#include <pthread.h>
int count;
void __VERIFIER_atomic_inc(void) { count = count + 1; }
void *worker(void *arg) {
  __VERIFIER_atomic_inc();
  __atomic_fetch_add(&count, 1, __ATOMIC_SEQ_CST);
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 2; i++)
    pthread_create(&t, 0, worker, 0);
  __atomic_store_n(&count, 0, __ATOMIC_SEQ_CST);
  return 0;
}
