// A driver-style buffer: writers append n bytes if they fit, readers consume up to n bytes,
// all under one mutex, from any number of client threads.
// Twin of buffer_len.c: the writer's room test is off by one (`dev.len > SIZE - n + 1`, as if
// the buffer held SIZE + 1 bytes).
// Truth: it lets `dev.len + n == SIZE + 1` through: a write of 31 then a write of 2 (31 > 31 is
// false) leaves dev.len == 33, and the writer's assertion fails (one client suffices). The
// reader clamps under the lock, so its assertion holds.
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
    if (dev.len > SIZE - n + 1) {
        pthread_mutex_unlock(&dev.lock);
        return -ENOSPC;
    }
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
