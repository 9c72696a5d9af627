// Twin of calloc_param_holds.c: the last element is written before the reader runs.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
int *buf;
static void init(unsigned long sz) { buf = calloc(sz, sizeof(int)); }
void *reader(void *arg) {
  assert(buf[2] == 0); // expect: violated
  return 0;
}
int main(void) {
  init(3);
  buf[2] = 1;
  pthread_t th;
  pthread_create(&th, 0, reader, 0);
  pthread_join(th, 0);
  return 0;
}
