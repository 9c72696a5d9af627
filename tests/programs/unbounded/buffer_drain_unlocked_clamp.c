// A driver-style buffer: writers append n bytes if they fit, readers consume up to n bytes,
// all under one mutex, from any number of client threads.
// Twin of buffer_len.c: the reader clamps n to dev.len before it takes the lock.
// Truth: with dev.len == 8, two readers of n = 8 both clamp to 8, then both subtract 8 under the
// lock in turn: dev.len reaches -8 and the reader's assertion fails. The writer's holds.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

#define SIZE 32
#define ENOSPC 28

struct device {
    pthread_mutex_t lock;
    int len;
} dev;

int dev_write(int n) {
    pthread_mutex_lock(&dev.lock);
    if (dev.len > SIZE - n) {
        pthread_mutex_unlock(&dev.lock);
        return -ENOSPC;
    }
    dev.len += n;
    __VERIFIER_assert(dev.len <= SIZE); // expect: safe
    pthread_mutex_unlock(&dev.lock);
    return n;
}

int dev_read(int n) {
    if (n > dev.len)
        n = dev.len;
    pthread_mutex_lock(&dev.lock);
    dev.len -= n;
    __VERIFIER_assert(dev.len >= 0); // expect: violated
    pthread_mutex_unlock(&dev.lock);
    return n;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        int n = __VERIFIER_nondet_int();
        __VERIFIER_assume(n >= 0 && n <= SIZE);
        if (__VERIFIER_nondet_int())
            dev_write(n);
        else
            dev_read(n);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
