// The twin of spin_cas.c: a failed trylock goes on into the critical section (the check of
// its result is inverted). Truth: violated with two clients (one locks and increments, the
// other's trylock fails and it increments too).
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
static int word;
static int inside;
static void lock(void) {
  while (!__sync_bool_compare_and_swap(&word, 0, 1)) {
  }
}
static int trylock(void) {
  int expected = 0;
  return __atomic_compare_exchange_n(&word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}
static void unlock(void) { __atomic_store_n(&word, 0, __ATOMIC_RELEASE); }
void *client(void *arg) {
  if (__VERIFIER_nondet_int()) {
    lock();
  } else if (trylock()) {
    return 0;
  }
  inside = inside + 1;
  assert(inside == 1); // expect: violated
  inside = inside - 1;
  unlock();
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, client, 0);
  return 0;
}
