// `kmalloc(len, flags)`, which the program does not define, with a length that is no
// `sizeof`: a fresh object, or NULL (a kernel allocation may fail).
#include <assert.h>
typedef unsigned long size_t;
extern void *kmalloc(size_t size, unsigned int flags);
extern void *kzalloc(size_t size, unsigned int flags);
extern unsigned int __VERIFIER_nondet_uint(void);

struct buf {
    int len;
    int used;
};

int main(void) {
    size_t len = __VERIFIER_nondet_uint();
    char *data = kmalloc(len, 0);
    struct buf *b = kzalloc(sizeof(struct buf), 0);
    if (!b)
        return 0;
    assert(b->used == 0); // expect: safe
    if (data) {
        data[0] = 'a';
        assert(data[0] == 'a'); // expect: safe
    }
    return 0;
}
