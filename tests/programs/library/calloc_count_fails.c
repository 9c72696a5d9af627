// Twins of calloc_count_holds.c: the last element is written before the reader runs, and a
// `malloc` of a run-time count has arbitrary contents.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int n;
int *buf;
int *raw;
void *reader(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < n)
    assert(buf[i] == 0); // expect: violated
  return 0;
}
void *raw_reader(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < n)
    assert(raw[i] == 0); // expect: violated
  return 0;
}
int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 3)
    return 0;
  buf = calloc(n, sizeof(int));
  buf[n - 1] = 4;
  raw = malloc(n * sizeof(int));
  pthread_t th, tr;
  pthread_create(&th, 0, reader, 0);
  pthread_create(&tr, 0, raw_reader, 0);
  pthread_join(th, 0);
  pthread_join(tr, 0);
  return 0;
}
