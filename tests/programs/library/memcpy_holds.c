#include <pthread.h>
#include <string.h>
#include <stdlib.h>
#include <assert.h>
struct pt { int x; int y; };
struct pt src = { 3, 4 }, dst;
int a[3] = { 1, 2, 3 }, b[3];
void *t(void *arg) { return 0; }
int main(void) {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  memcpy(&dst, &src, sizeof dst);
  assert(dst.x == 3 && dst.y == 4); // expect: safe
  memmove(b, a, sizeof a);
  assert(b[2] == 3); // expect: holds
  struct pt *p = calloc(2, sizeof(struct pt));
  assert(p[1].y == 0); // expect: safe
  pthread_join(th, 0);
  return 0;
}
