#include <pthread.h>
#include <assert.h>
int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  unsigned long p = 0;
  int n = 3;
  for (int i = 0; i < 2; i++) {
    int n = i + 1;
    pthread_mutex_lock(&m);
    g = g + n;
    p = p + 1;
    pthread_mutex_unlock(&m);
  }
  assert(n == 3); // expect: safe
  pthread_mutex_lock(&m);
  assert(g >= 0); // expect: safe
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
