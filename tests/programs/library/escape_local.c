#include <assert.h>
/* A local's address escapes the same way a global's does. */
extern void reg(int *p);
extern void trig(void);
int main(void) {
  int x = 0;
  reg(&x);
  x = 0;
  trig();
  assert(x == 0); // expect: unknown
  return 0;
}
