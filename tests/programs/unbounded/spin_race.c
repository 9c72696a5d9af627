// Race freedom under the program's own test-and-set spin lock (issue 37 item 3): every
// access to `count` is between spin_lock and spin_unlock. Truth: race-free for any number
// of threads (the lock word itself is only accessed atomically).
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
static volatile int lck;
static int count;
static void spin_lock(volatile int *l) {
  while (__sync_lock_test_and_set(l, 1)) {
  }
}
static void spin_unlock(volatile int *l) { __sync_lock_release(l); }
void *worker(void *arg) {
  spin_lock(&lck);
  count = count + 1;
  spin_unlock(&lck);
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  spin_lock(&lck);
  count = 0;
  spin_unlock(&lck);
  return 0;
}
