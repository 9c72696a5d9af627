// `while (x--)` tests the value read before the decrement, after the loop's header: the loop
// leaves after exactly three iterations, which bound 3 must cover (`g != 3` fails there).
#include <assert.h>
#include <pthread.h>
int g;
void *t(void *a) { return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int x = 3;
  while (x--)
    g++;
  assert(g <= 3); // expect: holds
  assert(g != 3); // expect: violated
  return 0;
}
