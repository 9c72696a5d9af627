// Threads created in a loop run the same unprotected increment side by side.
#include <pthread.h>
int count;
void *worker(void *arg) {
  count = count + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 4; i++)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
