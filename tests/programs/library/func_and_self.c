#include <assert.h>
#include <string.h>
#include <pthread.h>
int main(void) {
  assert(strlen(__func__) == 4);
  assert(__func__[0] == 'm');
  assert(pthread_self() != 0);
  return 0;
}
