#include <pthread.h>
#include <assert.h>
void *t(void *arg) { return (void *)7; }
int main(void) {
  pthread_t th[2];
  void *ret;
  for (int i = 0; i < 2; i++)
    pthread_create(&th[i], 0, t, 0);
  pthread_join(th[0], &ret);
  assert((long)ret == 7); // expect: unknown
  return 0;
}
