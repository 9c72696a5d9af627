// The resource allocator of Qadeer, Rajamani & Rehof (POPL 2004), Figure 3: an array of
// locks, `m[j]` protecting `available[j]`; each iteration of the search is one transaction.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
#define N 2
int available[N];
int owner[N];
pthread_mutex_t m[N];

int getResource(void) {
  int i = 0;
  while (i < N) {
    pthread_mutex_lock(&m[i]); // L1
    if (available[i]) {
      available[i] = 0;
      pthread_mutex_unlock(&m[i]);
      return i; // L5
    } else {
      pthread_mutex_unlock(&m[i]);
    }
    i++;
  }
  return i; // L8
}

void *client(void *arg) {
  int r = getResource();
  if (r < N) {
    pthread_mutex_lock(&m[r]);
    assert(owner[r] == 0); // expect: holds
    owner[r] = 1;
    pthread_mutex_unlock(&m[r]);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_mutex_lock(&m[0]);
  if (__VERIFIER_nondet_int()) available[0] = 1;
  pthread_mutex_unlock(&m[0]);
  pthread_mutex_lock(&m[1]);
  if (__VERIFIER_nondet_int()) available[1] = 1;
  pthread_mutex_unlock(&m[1]);
  pthread_create(&a, 0, client, 0);
  pthread_create(&b, 0, client, 0);
  return 0;
}
