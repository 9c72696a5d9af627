#include <assert.h>
/* `get` may return the address `reg` received. */
int g;
extern void reg(int *p);
extern int *get(void);
int main(void) {
  reg(&g);
  g = 0;
  int *p = get();
  *p = 1;
  assert(g == 0); // expect: unknown
  return 0;
}
