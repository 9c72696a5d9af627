// The failing twin of alloc_loop.c: a client frees its resource before it resets `owner`, so
// another client may get it while `owner` is still 1.
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
    pthread_mutex_lock(&m[i]);
    if (available[i]) {
      available[i] = 0;
      pthread_mutex_unlock(&m[i]);
      return i;
    }
    pthread_mutex_unlock(&m[i]);
    i++;
  }
  return i;
}

void freeResource(int r) {
  pthread_mutex_lock(&m[r]);
  available[r] = 1;
  pthread_mutex_unlock(&m[r]);
}

void *client(void *arg) {
  while (__VERIFIER_nondet_int()) {
    int r = getResource();
    if (r < N) {
      pthread_mutex_lock(&m[r]);
      assert(owner[r] == 0); // expect: violated
      owner[r] = 1;
      pthread_mutex_unlock(&m[r]);
      freeResource(r);
      pthread_mutex_lock(&m[r]);
      owner[r] = 0;
      pthread_mutex_unlock(&m[r]);
    }
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_mutex_lock(&m[0]);
  available[0] = 1;
  pthread_mutex_unlock(&m[0]);
  pthread_mutex_lock(&m[1]);
  available[1] = 1;
  pthread_mutex_unlock(&m[1]);
  pthread_create(&a, 0, client, 0);
  pthread_create(&b, 0, client, 0);
  return 0;
}
