// Twin of rand_state_racy.c: the calls of `rand` run under one mutex.
#include <pthread.h>
#include <stdlib.h>
int r1, r2;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  r1 = rand();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  r2 = rand();
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
