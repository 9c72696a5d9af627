/* Threads created in a loop with an input bound: the finite-state engine's parameterized
 * abstraction cannot prove the counting assertions, its exact exploration cannot take
 * unboundedly many threads, and the reason of an open assertion says so. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int c = 0; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) { pthread_mutex_lock(&m); c++; pthread_mutex_unlock(&m); return 0; }
int main() { pthread_t t[100]; int n = __VERIFIER_nondet_int(); if (n <= 0 || n > 100) return 0;
  for (int i = 0; i < n; i++) pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < n; i++) pthread_join(t[i], 0);
  __VERIFIER_assert(c == n); __VERIFIER_assert(c < 4); return 0; } // expect: holds, fails
// PARAM: --search-time 2
