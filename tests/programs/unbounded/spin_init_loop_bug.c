// The twin of spin_init.c: `main` initialises the lock inside its creation loop, so it may
// clear the word while a client holds it. Truth: both assertions fail with two clients (A
// locks and increments, main clears the word, B locks and sees 2, or probes and sees 1).
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
  assert(count == 1); // expect: violated
  count = count - 1;
  spin_unlock(&lck);
}
static void probe(void) {
  spin_lock(&lck);
  assert(count == 0); // expect: violated
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
  while (__VERIFIER_nondet_int()) {
    spin_lock_init(&lck);
    pthread_create(&t, 0, client, 0);
  }
  return 0;
}
