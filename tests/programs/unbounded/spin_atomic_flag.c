// A spin lock on __atomic_test_and_set / __atomic_clear (issue 37 item 3). Truth: safe for
// every thread count: the flag is set only by the test-and-set and cleared only by its holder.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
static _Bool flag;
static int balance;
static void lock(void) {
  while (__atomic_test_and_set(&flag, __ATOMIC_ACQUIRE)) {
  }
}
static void unlock(void) { __atomic_clear(&flag, __ATOMIC_RELEASE); }
void *client(void *arg) {
  lock();
  int b = balance;
  balance = b + 10;
  assert(balance == b + 10); // expect: safe [coarsen]
  balance = b;
  unlock();
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, client, 0);
  return 0;
}
