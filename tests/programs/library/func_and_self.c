#include <assert.h>
#include <string.h>
#include <pthread.h>
int main(void) {
  assert(strlen(__func__) == 4); // expect: safe
  assert(__func__[0] == 'm'); // expect: safe
  assert(pthread_self() != 0); // expect: unknown
  return 0;
}
