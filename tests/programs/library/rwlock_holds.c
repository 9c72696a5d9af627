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
  assert(c == count); // expect: holds
  pthread_rwlock_unlock(&rw);
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, writer, 0);
  pthread_create(&c, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  assert(count == 2); // expect: safe
  return 0;
}
