// The worker's result is read only after the join: the join orders the accesses.
#include <pthread.h>
int result;
void *worker(void *arg) {
  result = 42;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int r = result;
  return r == 42 ? 0 : 1;
}
