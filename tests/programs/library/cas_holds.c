#include <pthread.h>
#include <assert.h>
int lock, shared, n;
void *t(void *arg) {
  while (!__sync_bool_compare_and_swap(&lock, 0, 1)) { }
  shared = shared + 1;
  __atomic_store_n(&lock, 0, __ATOMIC_SEQ_CST);
  __atomic_fetch_add(&n, 2, __ATOMIC_SEQ_CST);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(shared == 2); // expect: holds
  assert(__atomic_load_n(&n, __ATOMIC_SEQ_CST) == 4); // expect: holds
  assert(__sync_add_and_fetch(&n, 1) == 5); // expect: holds
  return 0;
}
// PARAM: --search-time 2
