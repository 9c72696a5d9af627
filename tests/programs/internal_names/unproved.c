#include <pthread.h>
#include <assert.h>
unsigned long p;
int q;
void *worker(void *arg) {
  int n = 1;
  {
    int n = 2;
    p = p + 1;
    q = q + 1;
    assert(p + n != 7); // expect: fails
  }
  assert(n == 1); // expect: safe
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
