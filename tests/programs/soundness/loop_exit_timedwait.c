// A timed wait that times out before `ready` is set leaves the loop after one iteration through
// `r == 0`, a later part of the condition than the header's `!ready`: bound 1 covers it.
#include <assert.h>
#include <pthread.h>
#include <time.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *w(void *a) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, 0);
  struct timespec ts = {0, 0};
  pthread_mutex_lock(&m);
  int r = 0;
  while (!ready && r == 0)
    r = pthread_cond_timedwait(&c, &m, &ts);
  int v = ready;
  pthread_mutex_unlock(&m);
  assert(r != 0 || v == 1); // expect: holds
  assert(v == 1); // expect: violated
  return 0;
}
