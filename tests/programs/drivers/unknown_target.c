/* A handler obtained from a function the program does not define: the call through it may
 * reach any code, so no verdict can rest on it.
 */
#include <assert.h>

typedef void (*handler_t)(int *);
extern handler_t get_handler(void);

int x;

static void set_one(int *p)
{
    *p = 1;
}

int main(void)
{
    handler_t h = get_handler();
    handler_t g = set_one;
    g(&x);
    h(&x);
    assert(x == 1); // expect: unknown
    return 0;
}
