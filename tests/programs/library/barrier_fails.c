#include <assert.h>
#include <pthread.h>
/* A barrier for one thread does not wait for the other. */
pthread_barrier_t b;
int x, y;
void *t(void *a) {
  y = 1;
  pthread_barrier_wait(&b);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_barrier_init(&b, 0, 1);
  pthread_create(&id, 0, t, 0);
  x = 1;
  pthread_barrier_wait(&b);
  assert(y == 1); // expect: violated
  pthread_join(id, 0);
  return 0;
}
