// A function defined in another translation unit may call any function of this one that has
// external linkage: `ext_run` may call `fin` while `g` is still 0. The call of `ext_run` was
// modelled as writing the linked globals only, and `fin`'s assertion was reported
// "safe: `fin` is never called".
#include <assert.h>
#include <pthread.h>
int g;
extern void ext_run(void);
// `static`: no other translation unit can name it, and nothing takes its address.
static void unused(void) { assert(g == 2); } // expect: holds
void fin(void) { assert(g == 1); } // expect: fails
void *t(void *a) {
  g = 1;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  ext_run();
  return 0;
}
