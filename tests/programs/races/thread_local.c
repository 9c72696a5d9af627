// Per-thread data: every thread has its own copy of `mine`.
#include <pthread.h>
__thread int mine;
int shared_done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  mine = mine + 1;
  pthread_mutex_lock(&m);
  shared_done = shared_done + mine;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 3; i++)
    pthread_create(&t, 0, worker, 0);
  mine = 5;
  return 0;
}
