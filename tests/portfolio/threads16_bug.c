// The failing twin: the last of the 16 threads is not joined, so its flag may still be 0.
#include <pthread.h>
#include <assert.h>
int flag[16];
void *worker(void *a) { int id = (int)(long)a; flag[id] = 1; return 0; }
int main(void) {
  pthread_t t[16];
  int i;
  for (i = 0; i < 16; i++) pthread_create(&t[i], 0, worker, (void *)(long)i);
  for (i = 0; i < 15; i++) pthread_join(t[i], 0);
  assert(flag[15] == 1);
  return 0;
}
