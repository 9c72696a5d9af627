// A condition that is an integer constant expression was folded with mathematical values,
// ignoring C's conversions: `-1 < 1u` compares in unsigned int, so it is false; `(unsigned)-7
// / 2` divides 4294967289; '\xff' is a char, -1. The first assertion was `violated` and the
// second `safe` ("`main` is never called", since the failing branch took every path).
#include <assert.h>
#include <pthread.h>
void *t(void *a) { return 0; }
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  assert(!(-1 < 1u) && -1 == 0xFFFFFFFF && (unsigned)-7 / 2 == 2147483644u && 7u / -1 == 0 && '\xff' == -1 && (1 ? -1 : 1u) > 0); // expect: safe
  assert(-1 < 1u); // expect: violated
  return 0;
}
