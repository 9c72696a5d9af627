#include <assert.h>
/* From `&a[1]`, `p[-1]` is `a[0]`; from `&s.b`, `container_of` reaches `s.a`. */
struct S { int a; int b; };
struct S s;
int a[2];
extern void ext(int *p);
int main(void) {
  ext(&a[1]);
  ext(&s.b);
  assert(a[0] == 0); // expect: unknown
  assert(s.a == 0); // expect: unknown
  return 0;
}
