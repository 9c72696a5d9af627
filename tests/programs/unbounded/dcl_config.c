// Double-checked initialisation: `get_config` tests `cfg.initialised` without the lock, and
// only if it is clear takes the lock, tests again, fills in the table size and publishes it by
// setting the flag. Clients call it, and use the size, in any number of threads.
// Truth: `cfg.size` is only ever written 64, and only before `cfg.initialised = 1` in the same
// thread. A client leaves `get_config` either having seen the flag set (then the initialising
// thread's store of the size came before, and nothing writes it back) or having stored the size
// itself under the lock; either way `cfg.size == 64`, for every thread count. The table is
// filled in at most once: the second test under the lock sees the first initialiser's flag.
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
            cfg.size = 64;
            cfg.initialised = 1;
        }
        pthread_mutex_unlock(&cfg.lock);
    }
    return cfg.size;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        int n = get_config();
        __VERIFIER_assert(n == 64); // expect: safe [coarsen]
        int i = __VERIFIER_nondet_int();
        if (i >= 0 && i < n)
            __VERIFIER_assert(cfg.size > i); // expect: safe [coarsen]
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
