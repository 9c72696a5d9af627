// The failing twin of get_resource.c: the search reads and clears `available` without the
// lock, so two clients may take the same resource and the assertion fails.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
#define N 2
int available[N];
int owner[N];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int getResource(void) {
  int i = 0;
  while (i < N) {
    if (available[i]) {
      available[i] = 0;
      return i;
    }
    i++;
  }
  return i;
}

void *client(void *arg) {
  int r = getResource();
  if (r < N) {
    pthread_mutex_lock(&m);
    assert(owner[r] == 0); // expect: fails
    owner[r] = 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_mutex_lock(&m);
  if (__VERIFIER_nondet_int()) available[0] = 1;
  if (__VERIFIER_nondet_int()) available[1] = 1;
  pthread_mutex_unlock(&m);
  pthread_create(&a, 0, client, 0);
  pthread_create(&b, 0, client, 0);
  return 0;
}
