#include <pthread.h>
#include <string.h>
#include <assert.h>
int buf[4];
struct s { int a; char c[3]; long l; } obj;
void *t(void *arg) { return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  int x = 5;
  memset(&x, 0, sizeof x);
  assert(x == 0); // expect: holds
  memset(buf, 1, sizeof buf);
  assert(buf[2] == 0x01010101); // expect: safe
  memset(&obj, 0xff, sizeof obj);
  assert(obj.c[1] == -1 && obj.l == -1); // expect: safe
  pthread_join(th, 0);
  return 0;
}
