// Two threads call `rand`, whose seed is hidden state of the C library that each call reads
// and writes: they race on it though the program shares no variable.
#include <pthread.h>
#include <stdlib.h>
int r1, r2;
void *worker(void *arg) {
  r1 = rand();
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  r2 = rand();
  pthread_join(t, 0);
  return 0;
}
