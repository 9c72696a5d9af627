// `sizeof` of an expression took the type of a conditional's first branch, of a shift's
// wider operand, of a string literal's source spelling and of `double` for every floating
// constant, and `int` for what it did not know (a compound literal): the first assertion was
// `violated` and the second `safe`.
#include <assert.h>
#include <pthread.h>
struct P { int a; long b; };
int g;
void *t(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  char c = 1;
  short s = 2;
  long l = 3;
  int k = g;
  assert(sizeof(k ? c : s) == 4 && sizeof(k ? c : l) == 8 && sizeof(1 << 2L) == 4 && sizeof("a\n") == 3 && sizeof(1.0f) == 4 && sizeof((struct P){1, 2}) == 16 && sizeof(k ? 0 : &l) == 8); // expect: safe
  assert(sizeof(c << l) == 8); // expect: violated
  return 0;
}
