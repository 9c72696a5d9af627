// `calloc` of a count known only at run time: every element is zero, scalars of a struct too.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct slot { int v; int *p; };
int n;
int *buf;
struct slot *slots;
void *reader(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < n) {
    assert(buf[i] == 0); // expect: holds
    assert(slots[i].v == 0 && slots[i].p == 0); // expect: holds
  }
  return 0;
}
int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 3)
    return 0;
  buf = calloc(n, sizeof(int));
  slots = calloc(sizeof(struct slot), n);
  pthread_t th;
  pthread_create(&th, 0, reader, 0);
  pthread_join(th, 0);
  return 0;
}
// PARAM: --search-time 2
