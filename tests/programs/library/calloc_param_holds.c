// `calloc` of a count an inlined parameter holds: the zeroing loop is counted, so bound 1
// explores every execution.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
int *buf;
static void init(unsigned long sz) { buf = calloc(sz, sizeof(int)); }
void *reader(void *arg) {
  assert(buf[2] == 0); // expect: safe
  return 0;
}
int main(void) {
  init(3);
  pthread_t th;
  pthread_create(&th, 0, reader, 0);
  pthread_join(th, 0);
  return 0;
}
