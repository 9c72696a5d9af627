#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
atomic_int counter;
void *t(void *arg) { atomic_fetch_add(&counter, 1); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&counter) == 3); // expect: violated
  return 0;
}
