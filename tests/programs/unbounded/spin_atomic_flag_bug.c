// The twin of spin_atomic_flag.c: the client unlocks before restoring `balance`, so another
// client may read the raised balance and see its own write overwritten. Truth: violated
// with two clients (A adds 10 and unlocks; B locks, reads b+10, writes b+20; A restores b;
// B's assertion sees b).
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
  assert(balance == b + 10); // expect: violated
  unlock();
  balance = b;
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, client, 0);
  return 0;
}
