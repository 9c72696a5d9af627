// Figure 4 of Qadeer, Rajamani & Rehof (POPL 2004): `foo` recurses for ever when its argument
// is 0 and otherwise increments `g` under the lock. Every recursive call lies inside one
// transaction (its actions are all movers), so the summaries terminate; each thread that
// returns from `foo` has incremented `g`.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void foo(int r) {
  if (r == 0) {
    foo(r);
  } else {
    pthread_mutex_lock(&m);
    g++;
    pthread_mutex_unlock(&m);
  }
}

void *thread(void *arg) {
  int q = __VERIFIER_nondet_int() ? 1 : 0;
  foo(q);
  pthread_mutex_lock(&m);
  assert(g >= 1); // expect: holds
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thread, 0);
  pthread_create(&b, 0, thread, 0);
  return 0;
}
