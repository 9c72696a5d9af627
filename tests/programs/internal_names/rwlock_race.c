#include <pthread.h>
#include <assert.h>
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int count;
void *writer(void *arg) {
  pthread_rwlock_wrlock(&rw);
  count = count + 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}
void *reader(void *arg) {
  pthread_rwlock_rdlock(&rw);
  int c = count;
  pthread_rwlock_unlock(&rw);
  assert(c == 0); // expect: violated
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
