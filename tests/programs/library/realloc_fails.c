#include <assert.h>
#include <stdlib.h>
#include <pthread.h>
/* The moved contents race with a thread writing them. */
int *q;
void *t(void *a) {
  q[0] = 2;
  return 0;
}
int main(void) {
  pthread_t id;
  int *p = malloc(2 * sizeof(int));
  p[0] = 1;
  q = realloc(p, 4 * sizeof(int));
  pthread_create(&id, 0, t, 0);
  assert(q[0] == 1); // expect: violated
  pthread_join(id, 0);
  return 0;
}
