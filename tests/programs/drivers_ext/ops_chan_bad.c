// A kernel-filled function pointer reached through the driver's own object, called with that
// object: the call may write the object and whatever it points to, so nothing about them
// after the call is proved.
#include <assert.h>

struct dma_chan;
struct dma_device {
    int (*device_control)(struct dma_chan *chan, int cmd, unsigned long arg);
};
struct dma_chan {
    struct dma_device *device;
    int state;
};

extern struct dma_device dev;

static int pause_channel(struct dma_chan *chan) {
    return chan->device->device_control(chan, 1, 0);
}

int main(void) {
    static struct dma_chan chan;
    chan.device = &dev;
    chan.state = 3;
    pause_channel(&chan);
    assert(chan.state == 3); // expect: fails
    return 0;
}
