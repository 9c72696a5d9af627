// The failing twin of recursive_in_transaction.c: `foo` increments `g` without the lock, so
// the two increments may interleave and lose one; then `g == 2` fails after both joined.
#include <pthread.h>
#include <assert.h>
int g = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void foo(int r) {
  if (r == 0) {
    g++;
  } else {
    foo(r - 1);
  }
}

void *thread(void *arg) {
  foo(2);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thread, 0);
  pthread_create(&b, 0, thread, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(g == 2); // expect: fails
  return 0;
}
