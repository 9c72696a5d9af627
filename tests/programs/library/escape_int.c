#include <assert.h>
/* An address handed over as an integer is still an address. */
int g;
extern void ext(long a);
int main(void) {
  ext((long)&g);
  assert(g == 0); // expect: unknown
  return 0;
}
