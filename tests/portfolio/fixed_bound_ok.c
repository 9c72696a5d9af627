// A global that nothing writes after its initialiser bounds the creation and join loops: three
// workers, counted exactly, so the search is complete and proves the count.
#include <pthread.h>
#include <assert.h>
#ifndef BOUND_DECL
#define BOUND_DECL const int N = 3;
#define BOUND_SET
#endif
BOUND_DECL
int cnt = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); cnt++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t t[4];
  BOUND_SET
  for (int i = 0; i < N; i++) pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  assert(cnt == 3);
  return 0;
}
