// A variable-length array's size reads `n` when the declaration runs, beside the worker's
// unprotected write: a race, though no statement mentions `n` but the declaration.
#include <pthread.h>
int n = 4;
void *worker(void *arg) {
  n = n + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int a[n];
  a[0] = 0;
  return a[0];
}
