// The failing twin of handshake_long_loops_bug.c: both threads count their hand-overs, so
// only the last one (the 24th, which needs every round of both loops) is wrong. Rounds that
// cut the counted loops at the bound cannot reach it, and the exact encoding is beyond the
// budget: whatever the search says, it must never be `safe`.
#include <pthread.h>
#include <assert.h>
#define N 24
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int full;
int slot[N];
void *producer(void *arg) {
  int i, p = 0;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    if (!full) {
      slot[p] = p == N - 1 ? 0 : p + 1;
      p++;
      full = 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}
void *consumer(void *arg) {
  int i, c = 0;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    if (full) {
      assert(slot[c] == c + 1);
      c++;
      full = 0;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
