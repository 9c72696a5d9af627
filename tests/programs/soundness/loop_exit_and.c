// The loop leaves after exactly two iterations through the second half of its condition: at
// bound 2 the third test of the condition must still be explored (`g != 2` fails there).
#include <assert.h>
#include <pthread.h>
int g, stop;
void *t(void *a) { return 0; }
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  int i = 0;
  while (!stop && i < 2) {
    g++;
    i++;
  }
  assert(g <= 2); // expect: holds
  assert(g != 2); // expect: violated
  return 0;
}
