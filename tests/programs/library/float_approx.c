#include <assert.h>
int main(void) {
  double d = 1.5;
  int x = (int)d;
  assert(x == 1); // expect: unknown
  return 0;
}
