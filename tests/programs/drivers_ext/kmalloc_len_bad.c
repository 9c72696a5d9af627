// The failing twin of kmalloc_len.c: a kernel allocation may fail, so its result may be
// NULL; and the contents of `kmalloc` memory are indeterminate.
#include <assert.h>
typedef unsigned long size_t;
extern void *kmalloc(size_t size, unsigned int flags);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
    size_t len = __VERIFIER_nondet_uint();
    char *data = kmalloc(len, 0);
    assert(data != 0); // expect: violated
    return 0;
}
