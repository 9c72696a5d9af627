// Two compare-and-swap retry loops each add one: c ends at 2. A candidate violation in which
// a failed CAS was followed by the loop's exit test on the same values must not be taken for
// the thread's path (the exit is shared by every iteration of the unrolled loop).
#include <assert.h>
#include <pthread.h>
int c = 0;
void *t(void *a) {
  int o;
  do {
    o = c;
  } while (!__sync_bool_compare_and_swap(&c, o, o + 1));
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(c <= 2); // expect: holds
  assert(c == 1); // expect: violated
  return 0;
}
