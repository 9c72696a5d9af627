#include <pthread.h>
#include <string.h>
#include <assert.h>
struct pt { int x; int y; };
struct pt src = { 3, 4 }, dst;
void *t(void *arg) { return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  memcpy(&dst, &src, sizeof dst);
  assert(dst.y == 3); // expect: violated
  pthread_join(th, 0);
  return 0;
}
