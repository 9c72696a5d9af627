// pthread_once runs the initialiser once; every caller returns only after it has finished.
#include <pthread.h>
int config;
pthread_once_t once = PTHREAD_ONCE_INIT;
void init(void) { config = 7; }
void *worker(void *arg) {
  pthread_once(&once, init);
  int c = config;
  return (void *)(long)c;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 2; i++)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
