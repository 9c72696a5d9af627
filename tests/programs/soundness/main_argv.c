/* `main`'s `argv` points at the array the environment builds, never null. It was any pointer:
 * the first assertion was violated with `argv == 0`. The second fails in every run. */
#include <assert.h>
int main(int argc, char **argv) {
    assert(argv != 0); // expect: holds
    assert(argv == 0); // expect: fails
    return 0;
}
