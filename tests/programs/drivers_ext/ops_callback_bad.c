// The failing twin of ops_callback.c: the external `device_control` may write the status it
// receives, so its state after the call is any value and the assertion can fail.
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
    int r = dev.device_control(&st, 1, 0);
    assert(st.residue == 0); // expect: fails
    assert(r == 0); // expect: fails
    return 0;
}
