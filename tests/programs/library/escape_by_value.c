#include <assert.h>
/* A structure passed by value carries the pointers it holds. */
struct S { int *p; int v; };
int g;
extern void ext(struct S s);
int main(void) {
  struct S s;
  s.p = &g;
  s.v = 0;
  ext(s);
  assert(g == 0); // expect: unknown
  return 0;
}
