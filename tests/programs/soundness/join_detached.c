// A join of a detached thread is undefined; glibc returns EINVAL at once instead of waiting,
// so the second assertion fails in a good share of runs (85 of 200 when found by probe sweep
// 11). The IR's join waited for the thread to end, and the search called both `safe`.
#include <assert.h>
#include <pthread.h>
int x;
void *t(void *a) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_detach(a);
  pthread_join(a, 0);
  assert(x == 0 || x == 1); // expect: unknown
  assert(x == 1); // expect: unknown
  return 0;
}
