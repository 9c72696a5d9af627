// An interrupt handler against process context: the receive interrupt (a thread that main
// starts once, and that may run at any moment) adds a byte to the device's FIFO count under the
// driver's spin lock; `dev_read` in process context, from any number of client threads, takes
// up to `n` bytes under `spin_lock_irqsave`, the lock that also keeps the handler out on this
// CPU. The lock is the program's own test-and-set spinlock_t with kernel-style macros.
// Truth: `dev.pending` is changed only under `dev.lock` (the handler's spin_lock and the
// readers' spin_lock_irqsave take the same word). The handler adds 1 only when the count is
// below SIZE (otherwise it counts an overrun); a reader clamps `n` to the count it reads under
// the same hold of the lock. So `0 <= dev.pending <= SIZE` always, and both assertions hold
// for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

#define SIZE 16

typedef struct {
    volatile int slock;
} spinlock_t;
#define spin_lock(l)                                   \
    do {                                               \
        while (__sync_lock_test_and_set(&(l)->slock, 1)) { \
            while ((l)->slock) {                       \
            }                                          \
        }                                              \
    } while (0)
#define spin_unlock(l) __sync_lock_release(&(l)->slock)
#define spin_lock_irqsave(l, f) \
    do {                        \
        (f) = 1;                \
        spin_lock(l);           \
    } while (0)
#define spin_unlock_irqrestore(l, f) \
    do {                             \
        spin_unlock(l);              \
        (void)(f);                   \
    } while (0)

static struct device {
    spinlock_t lock;
    int pending;
    int overruns;
} dev;

static void rx_interrupt(void) {
    spin_lock(&dev.lock);
    if (dev.pending < SIZE)
        dev.pending = dev.pending + 1;
    else
        dev.overruns = dev.overruns + 1;
    __VERIFIER_assert(dev.pending <= SIZE); // expect: safe [coarsen]
    spin_unlock(&dev.lock);
}

static int dev_read(int n) {
    unsigned long flags;
    spin_lock_irqsave(&dev.lock, flags);
    if (n > dev.pending)
        n = dev.pending;
    dev.pending = dev.pending - n;
    __VERIFIER_assert(dev.pending >= 0); // expect: safe [coarsen]
    spin_unlock_irqrestore(&dev.lock, flags);
    return n;
}

void *irq_thread(void *arg) {
    while (__VERIFIER_nondet_int())
        rx_interrupt();
    return 0;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        int n = __VERIFIER_nondet_int();
        if (n >= 1 && n <= SIZE)
            dev_read(n);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, irq_thread, 0);
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
