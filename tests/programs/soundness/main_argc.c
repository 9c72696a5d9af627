/* `main`'s `argc` is nonnegative (C11 5.1.2.2.1p2). It was any `int`: the first assertion was
 * violated with `argc == -1`. The second fails when the program gets one argument. */
#include <assert.h>
int main(int argc, char **argv) {
    assert(argc >= 0); // expect: safe
    assert(argc != 2); // expect: violated
    return 0;
}
