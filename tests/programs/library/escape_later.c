#include <assert.h>
/* `reg` may keep the address; `trig` may write through it later; `h` is static. */
int g;
static int h;
extern void reg(int *p);
extern void trig(void);
int main(void) {
  reg(&g);
  g = 0;
  h = 0;
  trig();
  assert(h == 0); // expect: safe
  assert(g == 0); // expect: unknown
  return 0;
}
