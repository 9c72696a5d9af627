// A driver's own spinlock_t with kernel-style macros (issue 37 item 3): test-and-test-and-set
// on a struct member, spin_lock_irqsave / spin_unlock_irqrestore built on it, two entry
// points called nondeterministically by any number of clients. Truth: safe for every
// thread count: the word is set only by the test-and-set and cleared only by its holder, so
// one client at a time is inside.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
typedef struct {
  volatile int slock;
} spinlock_t;
#define spin_lock(l)                                   \
  do {                                                 \
    while (__sync_lock_test_and_set(&(l)->slock, 1)) { \
      while ((l)->slock) {                             \
      }                                                \
    }                                                  \
  } while (0)
#define spin_unlock(l) __sync_lock_release(&(l)->slock)
#define spin_lock_irqsave(l, f) \
  do {                          \
    (f) = 1;                    \
    spin_lock(l);               \
  } while (0)
#define spin_unlock_irqrestore(l, f) \
  do {                               \
    spin_unlock(l);                  \
    (void)(f);                       \
  } while (0)
static struct device {
  spinlock_t lock;
  int open;
  int inside;
} dev;
static void dev_open(void) {
  unsigned long flags;
  spin_lock_irqsave(&dev.lock, flags);
  dev.inside = dev.inside + 1;
  dev.open = dev.open + 1;
  assert(dev.inside == 1); // expect: safe [coarsen]
  dev.inside = dev.inside - 1;
  spin_unlock_irqrestore(&dev.lock, flags);
}
static void dev_close(void) {
  unsigned long flags;
  spin_lock_irqsave(&dev.lock, flags);
  dev.inside = dev.inside + 1;
  if (dev.open > 0)
    dev.open = dev.open - 1;
  assert(dev.inside == 1); // expect: safe [coarsen]
  dev.inside = dev.inside - 1;
  spin_unlock_irqrestore(&dev.lock, flags);
}
void *client(void *arg) {
  if (__VERIFIER_nondet_int())
    dev_open();
  else
    dev_close();
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, client, 0);
  return 0;
}
