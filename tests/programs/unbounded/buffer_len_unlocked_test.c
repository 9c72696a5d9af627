// A driver-style buffer: writers append n bytes if they fit, readers consume up to n bytes,
// all under one mutex, from any number of client threads.
// Twin of buffer_len.c: the writer tests for room before it takes the lock.
// Truth: two writers with n = 16 both see dev.len == 16 <= 32 - 16, then both add 16 under the
// lock in turn: dev.len reaches 48 and the writer's assertion fails (two clients, two writes
// each). The reader still clamps under the lock, so its assertion holds.
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
    if (dev.len > SIZE - n)
        return -ENOSPC;
    pthread_mutex_lock(&dev.lock);
    dev.len += n;
    __VERIFIER_assert(dev.len <= SIZE); // expect: violated
    pthread_mutex_unlock(&dev.lock);
    return n;
}

int dev_read(int n) {
    pthread_mutex_lock(&dev.lock);
    if (n > dev.len)
        n = dev.len;
    dev.len -= n;
    __VERIFIER_assert(dev.len >= 0); // expect: safe
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
