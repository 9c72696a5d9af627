#include <pthread.h>
#include <assert.h>
int n;
void *t(void *arg) {
  __atomic_fetch_add(&n, 2, __ATOMIC_SEQ_CST);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  assert(__sync_fetch_and_add(&n, 1) == 4); // expect: violated
  return 0;
}
