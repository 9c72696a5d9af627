// A pointer from memory the program does not fill in, called with as many arguments as a
// function of the program whose address it takes: it may be that function or code outside
// the program. Only the first case is modelled, so the call stays an unsupported construct.
#include <assert.h>

struct ops {
    int (*run)(int a, int b);
};

extern struct ops *driver_ops;

static int add(int a, int b) {
    return a + b;
}

int (*local_op)(int, int) = add;

int main(void) {
    int r = driver_ops->run(1, 2);
    assert(local_op(1, 2) == 3); // expect: unknown
    return r;
}
