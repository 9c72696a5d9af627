// spin_tas.c with the lock initialised by `main` (`spin_lock_init`, a store of 0) before it
// creates any client: no thread can hold the lock then. Truth: safe for every thread count.
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
#define spin_lock_init(l) (*(l) = 0)
int main(void) {
  pthread_t t;
  spin_lock_init(&lck);
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, client, 0);
  return 0;
}
