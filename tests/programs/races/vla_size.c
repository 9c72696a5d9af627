// Twin of vla_size_racy.c: the declaration reads `n` under the worker's mutex.
#include <pthread.h>
int n = 4;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  n = n + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int a[n];
  a[0] = 0;
  pthread_mutex_unlock(&m);
  return a[0];
}
