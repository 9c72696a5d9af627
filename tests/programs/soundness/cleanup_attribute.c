// GCC calls the function `cleanup` names when the variable leaves its scope; the lowering
// ignored the attribute, so `out` stayed 0: the first assertion was `violated` and the second
// `safe`. It is an unsupported construct now.
#include <assert.h>
#include <pthread.h>
int out;
static void done(int *p) { out = *p; }
void *t(void *a) { return 0; }
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  {
    int c __attribute__((cleanup(done))) = 5;
    c = 7;
  }
  assert(out == 7); // expect: unknown
  assert(out == 0); // expect: unknown
  return 0;
}
