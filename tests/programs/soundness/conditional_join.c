// A join on one branch only: after the branches meet, the thread it may have joined can still
// run. The search's pruning chained the order through the join's edge from the joined thread's
// end, so `u`'s write could never follow `h = 5`: the failing assertion was `safe` ("the
// bounded exploration was exhaustive"). `t` is joined on every path: the first one holds.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g, h;
void *w(void *a) { g = 7; return 0; }
void *v(void *a) { h = 7; return 0; }
int main(void) {
  pthread_t t, u;
  pthread_create(&t, 0, w, 0);
  pthread_create(&u, 0, v, 0);
  pthread_join(t, 0);
  if (__VERIFIER_nondet_int())
    pthread_join(u, 0);
  g = 5;
  h = 5;
  assert(g == 5); // expect: safe
  assert(h == 5); // expect: violated
  return 0;
}
