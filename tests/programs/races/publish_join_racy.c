// Twin of publish_join.c: main reads the result before the join.
#include <pthread.h>
int result;
void *worker(void *arg) {
  result = 42;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int r = result;
  pthread_join(t, 0);
  return r == 42 ? 0 : 1;
}
