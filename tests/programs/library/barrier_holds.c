#include <assert.h>
#include <pthread.h>
/* Nobody passes the barrier before both have written; exactly one is the serial thread. */
pthread_barrier_t b;
int x, y, serial;
void *t(void *a) {
  y = 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
    __atomic_fetch_add(&serial, 1, __ATOMIC_SEQ_CST);
  assert(x == 1); // expect: safe
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&id, 0, t, 0);
  x = 1;
  if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
    __atomic_fetch_add(&serial, 1, __ATOMIC_SEQ_CST);
  assert(y == 1); // expect: safe
  pthread_join(id, 0);
  assert(serial == 1); // expect: safe
  pthread_barrier_destroy(&b);
  return 0;
}
