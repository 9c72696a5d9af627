// Twin of lock_by_pointer.c: the thread is given another mutex than the one main holds.
#include <pthread.h>
int data;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_t *lock = arg;
  pthread_mutex_lock(lock);
  data = data + 1;
  pthread_mutex_unlock(lock);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, &other);
  pthread_mutex_lock(&m);
  data = data + 2;
  pthread_mutex_unlock(&m);
  return 0;
}
