/* The same for the `static` local of a function whose inlined call is the first thing `main`
 * does: its counter started at zero, not 5. */
#include <assert.h>
int next(void) {
    static int n = 5;
    return n++;
}
int main(void) {
    int a = next();
    int b = next();
    assert(a == 5 && b == 6); // expect: safe
    assert(b == 5); // expect: violated
    return 0;
}
