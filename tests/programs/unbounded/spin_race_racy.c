// The racy twin of spin_race.c: main resets `count` without taking the spin lock. Truth: a
// race between main's write and a worker's increment.
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
  count = 0;
  return 0;
}
