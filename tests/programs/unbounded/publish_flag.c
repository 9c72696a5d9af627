// Data published before a flag: `probe` (run by main after it has started the clients) fills
// in the device's geometry, then sets `ready`; a client's `dev_read` checks `ready` and only
// then reads the geometry, in any number of client threads.
// Truth: `dev.size` and `dev.blocks` are only ever written 64 and 8, by probe, and probe sets
// `ready` after both stores. Under sequential consistency a client that reads `ready == 1` reads
// it after probe's stores, and nothing writes the geometry back, so both assertions hold for
// every thread count.
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
    if (!dev.ready)
        return -19;
    int size = dev.size;
    __VERIFIER_assert(size == 64); // expect: safe [coarsen]
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
