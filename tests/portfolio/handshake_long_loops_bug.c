// A producer and a consumer take turns through a flag, each in a counted loop of 24 rounds.
// The consumer checks slot i in its own round i, but it only consumes when the flag says so:
// when its first round comes before the producer's first hand-over, it later checks slot 1,
// which the producer has not filled. Exact unrolling of both loops makes an encoding too large
// to solve within the budget; the rounds that cut the counted loops at the bound find the bug
// at bound 2.
#include <pthread.h>
#include <assert.h>
#define N 24
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int full;
int slot[N];
void *producer(void *arg) {
  int i;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    if (!full) {
      slot[i] = i + 1;
      full = 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}
void *consumer(void *arg) {
  int i;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    if (full) {
      assert(slot[i] == i + 1);
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
