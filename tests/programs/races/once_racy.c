// Twin of once.c: every thread runs the initialiser itself.
#include <pthread.h>
int config;
void init(void) { config = 7; }
void *worker(void *arg) {
  init();
  int c = config;
  return (void *)(long)c;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 2; i++)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
