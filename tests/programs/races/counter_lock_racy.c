// Twin of counter_lock.c: main resets the counter without the mutex.
#include <pthread.h>
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 4; i++)
    pthread_create(&t, 0, worker, 0);
  count = 0;
  return 0;
}
