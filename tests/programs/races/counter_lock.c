// A counter every thread raises under one mutex: race-free for any number of threads.
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
  pthread_mutex_lock(&m);
  count = 0;
  pthread_mutex_unlock(&m);
  return 0;
}
