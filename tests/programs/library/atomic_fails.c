#include <pthread.h>
#include <assert.h>
int counter;
void *t(void *arg) { int v = counter; counter = v + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2); // expect: violated
  return 0;
}
