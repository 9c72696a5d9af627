#include <assert.h>
#include <pthread.h>
/* The later call is in another thread. */
int g;
extern void reg(int *p);
extern void trig(void);
void *t(void *a) {
  trig();
  return 0;
}
int main(void) {
  pthread_t h;
  reg(&g);
  g = 0;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(g == 0); // expect: unknown
  return 0;
}
