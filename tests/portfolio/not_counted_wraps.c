// Not a counted loop: an unsigned char is always below 256, so the loop never ends and x
// reaches 10.
#include <pthread.h>
#include <assert.h>
int x;
void *worker(void *a) {
  unsigned char i;
  for (i = 250; i < 256; i++) {
    x = x + 1;
    assert(x < 10);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  return 0;
}
