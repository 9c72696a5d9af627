// An attribute set to PTHREAD_CREATE_JOINABLE keeps the thread joinable: the join waits, so
// the first assertion holds; the second fails when the input is 5. Only a detached thread's
// join is out of the model (attr_detached.c); this program is analysed.
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *t(void *a) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_attr_t attr;
  pthread_t a;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_JOINABLE);
  pthread_create(&a, &attr, t, 0);
  pthread_join(a, 0);
  assert(x == 1); // expect: holds
  int y = __VERIFIER_nondet_int();
  assert(y != 5); // expect: violated
  return 0;
}
