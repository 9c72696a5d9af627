// The twin of spin_tas.c in which `probe` re-initialises the lock (`lck = 0`, as a misplaced
// spin_lock_init) instead of taking it: a store of zero by a thread that does not hold the
// lock frees it under its holder. Truth: violated with three clients: A locks and
// increments, B's probe clears the word, C locks and increments too, and sees 2.
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
  lck = 0;
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
