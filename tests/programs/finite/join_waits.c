// main joins the one thread it created before reading the counter both increment under a
// lock: the join waits for that thread's end, so g is 2 there. Reduced from SV-COMP's
// pthread-C-DAC/pthread-demo-datarace-1, where twenty rounds per thread defeat the search.
#include <pthread.h>
#ifndef EXPECTED
#define EXPECTED 2
#endif
extern void abort(void);
void reach_error(void);
int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *thr(void *a) {
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
#ifdef SECOND_THREAD
  pthread_t u;
  pthread_create(&u, 0, thr, 0);
#endif
#ifdef HANDLE_REUSED
  pthread_create(&t, 0, thr, 0);
#endif
  pthread_create(&t, 0, thr, 0);
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  if (g != EXPECTED) { reach_error(); abort(); } // expect: holds
  return 0;
}
