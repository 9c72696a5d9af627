#include <assert.h>
extern void fill(int *p);
int main(void) {
  int x = 0;
  fill(&x);
  assert(x == 0); // expect: unknown
  return 0;
}
