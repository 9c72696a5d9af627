#include <pthread.h>
#include <semaphore.h>
#include <assert.h>
sem_t s;
int count;
void *t(void *arg) {
  sem_wait(&s);
  count = count + 1;
  sem_post(&s);
  return 0;
}
int main(void) {
  pthread_t a, b;
  sem_init(&s, 0, 2);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2); // expect: violated
  return 0;
}
