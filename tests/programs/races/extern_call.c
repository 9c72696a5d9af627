// An undefined function may read or write what it can reach, or call back code: no location
// is claimed race-free, even `other`, which the program never shares visibly.
#include <pthread.h>
void foo(int *p);
int g;
int other;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  g = 1;
  pthread_mutex_lock(&m);
  other = other + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  foo(&g);
  pthread_mutex_lock(&m);
  other = 0;
  pthread_mutex_unlock(&m);
  return 0;
}
