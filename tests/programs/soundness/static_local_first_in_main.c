/* A `static` local's initialiser is stored right after the root's entry. With nothing lowered
 * after the entry yet (the local first in `main`, no global initialisers), the rest of `main`
 * branched from the entry beside the initialisation instead of following it: a run with the
 * local at zero, so the first assertion was violated and the second, reached only through the
 * initialisation's dead end, safe. */
#include <assert.h>
int main(void) {
    static int n = 5;
    assert(n == 5); // expect: safe
    assert(n == 6); // expect: violated
    return 0;
}
