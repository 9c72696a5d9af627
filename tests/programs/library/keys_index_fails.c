#include <assert.h>
#include <pthread.h>
#include <stddef.h>
/* Thread-local memory starts as zero; the stack beside it does not. */
extern unsigned __VERIFIER_nondet_uint(void);
pthread_key_t k, k2;
int a;
int main(void) {
  int local[4];
  int *p = local;
  unsigned j = __VERIFIER_nondet_uint() % 4;
  pthread_key_create(&k, NULL);
  k2 = k;
  pthread_setspecific(k, &a);
  if (__VERIFIER_nondet_uint())
    assert(pthread_getspecific(k2) == NULL); // expect: violated
  assert(p[j] == 0); // expect: violated
  return 0;
}
