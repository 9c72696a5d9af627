#include <pthread.h>
#include <assert.h>
/* A driver's own lock type and operations: they replace the built-in model. */
typedef struct { int init; int locked; } spinlock_t;
void spin_lock_init(spinlock_t *l) { l->init = 1; l->locked = 0; }
void spin_lock(spinlock_t *l) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(l->locked == 0);
  l->locked = 1;
  __VERIFIER_atomic_end();
}
void spin_unlock(spinlock_t *l) { l->locked = 0; }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
spinlock_t dev_lock;
int count;
void *worker(void *arg) {
  spin_lock(&dev_lock);
  count = count + 1;
  spin_unlock(&dev_lock);
  return 0;
}
int main(void) {
  pthread_t a, b;
  spin_lock_init(&dev_lock);
  assert(dev_lock.init == 1); // expect: holds
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2); // expect: holds
  assert(count == 3); // expect: violated
  return 0;
}
