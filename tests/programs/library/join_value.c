#include <pthread.h>
#include <assert.h>
void *t(void *arg) { return (void *)7; }
int main(void) {
  pthread_t th;
  void *ret;
  pthread_create(&th, 0, t, 0);
  pthread_join(th, &ret);
  assert((long)ret == 7); // expect: safe
  return 0;
}
