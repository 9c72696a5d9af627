/* An LDV-style harness: module_init/module_exit name the driver's entry points through
 * function pointers; main calls init, then creates reader threads in a `while (1)` loop until
 * a nondeterministic stop, then calls exit.
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

#define module_init(fn) int (*__module_init)(void) = fn
#define module_exit(fn) void (*__module_exit)(void) = fn

static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;
static int registered;
static int users;
static int stats;

static int my_init(void)
{
    registered = 1;
    return 0;
}

static void my_exit(void)
{
    registered = 0;
}

module_init(my_init);
module_exit(my_exit);

static void *reader(void *arg)
{
    pthread_mutex_lock(&mod_lock);
    users++;
    assert(registered == 1); /* HOLDS */ // expect: holds
    users--;
    pthread_mutex_unlock(&mod_lock);
    stats++;
    return 0;
}

int main(void)
{
    pthread_t t;
    if (__module_init() != 0)
        return 0;
    while (1) {
        if (__VERIFIER_nondet_int())
            break;
        pthread_create(&t, 0, reader, 0);
    }
    pthread_mutex_lock(&mod_lock);
    assert(users == 0); /* HOLDS */ // expect: holds
    pthread_mutex_unlock(&mod_lock);
    assert(stats == 0); /* FAILS */ // expect: violated
    return 0;
}
