// Loads and stores of an `_Atomic` object are atomic accesses: threads writing and reading it
// without a lock do not race (C11 5.1.2.4); `++` on it is one atomic read-modify-write.
#include <pthread.h>
_Atomic int flag;
_Atomic int counts[2];
void *worker(void *arg) {
  flag = 1;
  counts[1]++;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&t, 0, worker, 0);
  int seen = flag;
  counts[1] = seen;
  return 0;
}
