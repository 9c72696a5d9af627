// Double-checked initialisation: `get_config` tests `cfg.initialised` without the lock, and
// only if it is clear takes the lock, tests again, fills in the table size and publishes it by
// setting the flag. Clients call it, and use the size, in any number of threads.
// Twin of dcl_config.c: the initialiser publishes the flag before it stores the size.
// Truth: a client sets `cfg.initialised = 1` under the lock and is preempted before its store
// of the size; a second client sees the flag on its unlocked fast path and returns the size 0:
// the first assertion fails. The second holds: it is reached only with `n == 64` (a failing
// assertion ends the run), `n` was read from `cfg.size`, and `cfg.size` only ever goes from 0
// to 64, so it is still 64 and greater than `i`.
// Today: COARSEN does not prove the second assertion (the flag is set before the store, so it
// publishes nothing, and the read of `cfg.size` is not known to be 64; a thread's knowledge that
// `n == 64` came from that same cell is not kept), and the search finds no violation: bounded-safe.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

static struct config {
    pthread_mutex_t lock;
    int initialised;
    int size;
} cfg = {PTHREAD_MUTEX_INITIALIZER, 0, 0};

static int get_config(void) {
    if (!cfg.initialised) {
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
