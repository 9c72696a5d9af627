// A recursive procedure inside a transaction: `foo` descends to 0 and increments `g` under
// the lock; main asserts after both threads joined that both increments happened.
#include <pthread.h>
#include <assert.h>
int g = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void foo(int r) {
  if (r == 0) {
    pthread_mutex_lock(&m);
    g++;
    pthread_mutex_unlock(&m);
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
  pthread_mutex_lock(&m);
  assert(g <= 2); // expect: holds
  pthread_mutex_unlock(&m);
  return 0;
}
