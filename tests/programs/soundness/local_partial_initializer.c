// The members a braced initializer of a local leaves out are zero (C11 6.7.9p21): they kept
// an indeterminate value, and the first assertion was `violated`.
#include <assert.h>
#include <pthread.h>
struct P { int a, b, c; };
void *t(void *a) { return 0; }
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  struct P l = { .b = 3 };
  struct P m = { 1 };
  int la[4] = { [2] = 1 };
  assert(l.a == 0 && l.b == 3 && l.c == 0 && m.a == 1 && m.c == 0 && la[2] == 1 && la[3] == 0); // expect: safe
  assert(l.c != 0 || la[0] != 0); // expect: violated
  return 0;
}
