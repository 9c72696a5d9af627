#include <assert.h>
int x;
int main(void) {
    x = 1;
    assert(x == 1); // expect: safe
    return 0;
}
