/* Global function pointers initialised to functions, the way harnesses reach a driver's entry
 * points (`int (*init)(void) = nvram_init;`), and one reassigned by a thread.
 */
#include <pthread.h>
#include <assert.h>

static int nvram_ready;
static int nvram_size;

static int nvram_init(void)
{
    nvram_ready = 1;
    nvram_size = 128;
    return 0;
}

static int nvram_fail(void)
{
    return -19;
}

static int nvram_cleanup(void)
{
    nvram_ready = 0;
    return 0;
}

int (*init)(void) = nvram_init;
int (*cleanup)(void) = nvram_cleanup;
int (*probe)(void) = nvram_init;

static void *swap_probe(void *arg)
{
    probe = nvram_fail;
    return 0;
}

int main(void)
{
    pthread_t t;
    int rc = init();
    assert(rc == 0); /* HOLDS */ // expect: holds
    assert(nvram_ready == 1 && nvram_size == 128); /* HOLDS */ // expect: holds
    pthread_create(&t, 0, swap_probe, 0);
    rc = probe();
    assert(rc == 0 || rc == -19); /* HOLDS */ // expect: holds
    assert(rc == 0); /* FAILS */ // expect: violated
    pthread_join(t, 0);
    cleanup();
    assert(nvram_ready == 0); /* HOLDS */ // expect: holds
    return 0;
}
