// A function defined in another translation unit may read `hook`, a global with external
// linkage, and call the function it points to: `fin` is `static`, but its address escapes
// through `hook`, and it may run while `g` is still 0.
#include <assert.h>
#include <pthread.h>
int g;
static int h;
static void check(void) { assert(h == 0); } // expect: holds
static void fin(void) { assert(g == 1); } // expect: fails
void (*hook)(void) = fin;
extern void ext_run(void);
static void *t(void *a) {
  g = 1;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  ext_run();
  check();
  return 0;
}
