// A pointer to a member of an array's element, moved by pointer arithmetic, lands in other
// members of other elements: `&arr[0].a + 4` is `&arr[1].b`. The alias model kept it on
// member `a` of every element (as if `a` were the array), so the other thread's write to
// `arr[1].b` was lost and the second assertion proved `safe`.
#include <assert.h>
#include <pthread.h>
struct S { int a; int b; int c; };
struct S arr[3];
void *t(void *x) {
  int *p = &arr[0].a;
  p[4] = 9;
  return 0;
}
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  assert(arr[1].b == 0 || arr[1].b == 9); // expect: holds
  assert(arr[1].b == 0); // expect: violated
  return 0;
}
