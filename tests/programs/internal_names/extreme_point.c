#include <assert.h>
int main(void) {
  unsigned char c = 255;
  _Bool b = 1;
  assert(c == 255 && b); // expect: safe [coarsen]
  return 0;
}
