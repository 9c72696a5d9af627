#include <pthread.h>
#include <assert.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int inits, ready;
void init(void) { inits = inits + 1; ready = 1; }
void *t(void *arg) {
  pthread_once(&once, init);
  assert(ready == 1); // expect: safe
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(inits == 1); // expect: safe
  return 0;
}
