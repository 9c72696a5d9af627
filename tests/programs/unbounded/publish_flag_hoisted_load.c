// Data published before a flag: `probe` (run by main after it has started the clients) fills
// in the device's geometry, then sets `ready`; a client's `dev_read` checks `ready` and only
// then reads the geometry, in any number of client threads.
// Twin of publish_flag.c: the client loads the geometry before it checks `ready` (a hoisted
// load).
// Truth: a client reads `dev.size == 0` before probe runs, then probe runs to the end, then the
// client sees `ready == 1` and asserts on the stale size: the first assertion fails. The second
// holds: a failing assertion ends the run, so it is reached only with `size == 64`, and
// `dev.blocks` is read after `ready == 1`, so it is 8.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

static struct device {
    int size;
    int blocks;
    int ready;
} dev;

static void probe(void) {
    dev.size = 64;
    dev.blocks = 8;
    dev.ready = 1;
}

static int dev_read(int off) {
    int size = dev.size;
    if (!dev.ready)
        return -19;
    __VERIFIER_assert(size == 64); // expect: violated
    __VERIFIER_assert(dev.blocks * 8 == size); // expect: safe [coarsen]
    if (off >= size)
        return 0;
    return size - off;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int())
        dev_read(__VERIFIER_nondet_int());
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    probe();
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
