#include <pthread.h>
#include <string.h>
#include <assert.h>
int buf[4];
void *t(void *arg) { return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  memset(buf, 1, sizeof buf);
  assert(buf[2] == 0); // expect: violated
  pthread_join(th, 0);
  return 0;
}
