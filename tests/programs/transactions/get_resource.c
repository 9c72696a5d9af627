// The resource allocator of Qadeer, Rajamani & Rehof (POPL 2004), Figure 2: one lock `m`
// protects the array `available`; getResource is one transaction (acquire, a search, a
// release). main makes any subset of the two resources available, under the lock.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
#define N 2
int available[N];
int owner[N];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int getResource(void) {
  int i = 0;
  pthread_mutex_lock(&m); // L0
  while (i < N) {
    if (available[i]) {
      available[i] = 0;
      pthread_mutex_unlock(&m);
      return i; // L5
    }
    i++;
  }
  pthread_mutex_unlock(&m);
  return i; // L8
}

void *client(void *arg) {
  int r = getResource();
  if (r < N) {
    pthread_mutex_lock(&m);
    // The allocator hands a resource to one client only.
    assert(owner[r] == 0); // expect: holds
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
