// A spin lock built from __sync_lock_test_and_set / __sync_lock_release (issue 37 item 3).
// Truth: safe for every thread count. The lock word `lck` is written only by the
// test-and-set (1) and by the holder's release (0), so a client past the loop is the only
// thread between lock and unlock: `count` is 1 at the assertion.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
static volatile int lck;
static int count;
static void spin_lock(volatile int *l) {
  while (__sync_lock_test_and_set(l, 1)) {
  }
}
static void spin_unlock(volatile int *l) { __sync_lock_release(l); }
static void enter(void) {
  spin_lock(&lck);
  count = count + 1;
  assert(count == 1); // expect: safe [coarsen]
  count = count - 1;
  spin_unlock(&lck);
}
static void probe(void) {
  spin_lock(&lck);
  assert(count == 0); // expect: safe [coarsen]
  spin_unlock(&lck);
}
void *client(void *arg) {
  if (__VERIFIER_nondet_int())
    enter();
  else
    probe();
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, client, 0);
  return 0;
}
