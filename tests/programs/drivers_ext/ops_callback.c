// A driver calls a function pointer that the kernel filled in (`dev.device_control`): no
// function of the program can be there, so the call is one of code without a definition.
// What it can reach (the status it receives) is havocked; what it cannot name is kept.
#include <assert.h>

struct status {
    int state;
    int residue;
};
struct dma_device {
    int (*device_control)(struct status *st, int cmd, unsigned long arg);
};

extern struct dma_device dev;

int main(void) {
    static struct status st;
    static int other = 5;
    int local = 7;
    int r = dev.device_control(&st, 1, 0);
    assert(local == 7); // expect: safe [coarsen]
    assert(other == 5); // expect: safe [coarsen]
    return 0;
}
