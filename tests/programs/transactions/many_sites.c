// One locked procedure called from twelve sites over three threads (every call inlined, so
// twelve copies of `step`): the transactions summarise `step` once per entry state and reuse
// the summary at every other site. Every argument is 0 or 1, so the assertion holds.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;

void step(int v) {
  pthread_mutex_lock(&m);
  x = v;
  assert(x <= 1); // expect: holds
  x = 0;
  pthread_mutex_unlock(&m);
}

void *t0(void *a) { step(0); step(1); step(0); step(1); return 0; }
void *t1(void *a) { step(1); step(1); step(0); step(0); return 0; }
#ifndef T2_THIRD_ARG
#define T2_THIRD_ARG 0 // many_sites_one_bad.c passes 2 here
#endif
void *t2(void *a) { step(1); step(0); step(T2_THIRD_ARG); step(1); return 0; }

int main(void) {
  pthread_t h[3];
  pthread_create(&h[0], 0, t0, 0);
  pthread_create(&h[1], 0, t1, 0);
  pthread_create(&h[2], 0, t2, 0);
  return 0;
}
