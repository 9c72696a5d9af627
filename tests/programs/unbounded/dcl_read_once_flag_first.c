// Double-checked initialisation as the kernel writes it: `get_config` reads the flag once
// (READ_ONCE, into a local) without the lock and tests the copy; only if it is clear does it
// take the lock, test the flag again, fill in the table size and publish it by setting the
// flag. Clients call it, and use the size, in any number of threads.
// Twin of dcl_read_once.c: the initialiser publishes the flag before it stores the size.
// Truth: a client sets `cfg.initialised = 1` under the lock and is preempted before its store
// of the size; a second client reads the flag set on its unlocked fast path and returns the
// size 0: the first assertion fails. The second holds (it is reached only with `n == 64`, read
// from `cfg.size`, which only ever goes from 0 to 64), but COARSEN does not prove it and the
// search finds no violation: bounded-safe (as in dcl_config_flag_first.c).
#include <pthread.h>
#define READ_ONCE(x) (*(volatile __typeof__(x) *)&(x))
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

static struct config {
    pthread_mutex_t lock;
    int initialised;
    int size;
} cfg = {PTHREAD_MUTEX_INITIALIZER, 0, 0};

static int get_config(void) {
    int done = READ_ONCE(cfg.initialised);
    if (!done) {
        pthread_mutex_lock(&cfg.lock);
        if (!cfg.initialised) {
            cfg.initialised = 1;
            cfg.size = 64;
        }
        pthread_mutex_unlock(&cfg.lock);
    }
    return cfg.size;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        int n = get_config();
        __VERIFIER_assert(n == 64); // expect: violated
        int i = __VERIFIER_nondet_int();
        if (i >= 0 && i < n)
            __VERIFIER_assert(cfg.size > i); // expect: bounded-safe (holds; see above)
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
