#include <assert.h>
#include <pthread.h>
#include <stddef.h>
/* The value another thread set is not this thread's. */
pthread_key_t k;
int a, b;
void *t(void *arg) {
  pthread_setspecific(k, &b);
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_key_create(&k, NULL);
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  assert(pthread_getspecific(k) == &b); // expect: violated
  return 0;
}
