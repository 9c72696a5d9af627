// Twin of atomics.c: main resets the counter with a plain store.
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
  count = 0;
  return 0;
}
