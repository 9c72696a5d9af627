// Figure 8 of Qadeer, Rajamani & Rehof (POPL 2004): before recursing, `foo` writes `x` and `y`
// without a lock, so a transaction ends inside the recursion and the summaries need not
// terminate: the transaction engine declines.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g = 0, x = 0, y = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void foo(int r) {
  if (r == 0) {
    x = 1;
    y = 1;
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
  assert(g >= 1 && x + y < 3); // expect: holds
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thread, 0);
  pthread_create(&b, 0, thread, 0);
  return 0;
}
