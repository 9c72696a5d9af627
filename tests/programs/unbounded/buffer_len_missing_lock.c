// A driver-style buffer: writers append n bytes if they fit, readers consume up to n bytes,
// all under one mutex, from any number of client threads.
// Twin of buffer_len.c: the writer takes no lock at all (the reader still does).
// Truth: two writers with n = 16 both see dev.len == 16 and both add 16: dev.len reaches 48
// and the writer's assertion fails (two clients, two writes each). The reader's can fail too:
// a writer of 0 reads dev.len == 0 and stalls, another writer adds 16, a reader clamps its 16 to
// dev.len == 16, the stalled writer stores 0 + 0, and the reader's subtraction leaves -16.
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
    dev.len += n;
    __VERIFIER_assert(dev.len <= SIZE); // expect: violated
    return n;
}

int dev_read(int n) {
    pthread_mutex_lock(&dev.lock);
    if (n > dev.len)
        n = dev.len;
    dev.len -= n;
    __VERIFIER_assert(dev.len >= 0); // expect: fails
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
