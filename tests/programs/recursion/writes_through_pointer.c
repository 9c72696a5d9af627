// A recursive fill through a pointer argument, deeper than the inlined copies: its writes are
// executed in the shared copy, not summarised. Every element it writes is positive (proved);
// element 15 is not 0 after filling 20 (the failing twin is violated).
#include <assert.h>

int a[20];

void fill(int *p, int n) {
    if (n == 0)
        return;
    p[n - 1] = n;
    fill(p, n - 1);
}

int main(void) {
    fill(a, 20);
    assert(a[15] >= 0); // expect: safe
    assert(a[15] == 0); // expect: violated
    return 0;
}
