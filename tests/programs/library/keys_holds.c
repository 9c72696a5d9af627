#include <assert.h>
#include <pthread.h>
#include <stddef.h>
/* Each thread sees its own value; a new thread starts with NULL. */
pthread_key_t k;
int a, b;
void *t(void *arg) {
  assert(pthread_getspecific(k) == NULL); // expect: safe
  pthread_setspecific(k, &b);
  assert(pthread_getspecific(k) == &b); // expect: safe
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_key_t k2;
  assert(pthread_key_create(&k, NULL) == 0); // expect: safe
  assert(pthread_key_create(&k2, NULL) == 0); // expect: safe
  assert(k != k2); // expect: safe
  pthread_setspecific(k, &a);
  pthread_create(&id, 0, t, 0);
  assert(pthread_getspecific(k) == &a); // expect: safe
  assert(pthread_getspecific(k2) == NULL); // expect: safe
  pthread_join(id, 0);
  pthread_key_delete(k);
  return 0;
}
