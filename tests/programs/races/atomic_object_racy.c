// Twin of atomic_object.c: `flag` is a plain int, so the unlocked stores and the load race.
#include <pthread.h>
int flag;
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
