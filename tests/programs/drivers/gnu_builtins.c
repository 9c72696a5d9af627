/* GNU C that driver code leans on, in one program: __typeof__, statement expressions,
 * __builtin_expect, __builtin_constant_p, designated and nested initialisers, compound
 * literals, flexible array members, bit-fields, a union read through a member of the written
 * one's size, _Static_assert, attributes, and inline assembly (an over-approximation).
 */
#include <pthread.h>
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })

_Static_assert(sizeof(int) == 4, "int is 32-bit");

struct regs {
    unsigned int ctrl : 4;
    unsigned int mode : 4;
    int count;
} __attribute__((packed));

struct cfg {
    int id;
    struct { int lo, hi; } range;
    int vals[3];
};

struct msg {
    int len;
    char data[];
};

union word {
    unsigned int u;
    int i;
};

static struct regs regs;
static struct cfg config = { .id = 3, .range = { .lo = 1, .hi = 9 }, .vals = { [2] = 5 } };
static int shared_counter __attribute__((aligned(8)));

static void *bump(void *arg)
{
    shared_counter++;
    return 0;
}

int main(void)
{
    pthread_t t;
    union word w;
    int k = max(config.range.lo, config.range.hi);
    int c = __builtin_constant_p(k) ? 1 : 2;
    struct cfg *p = &(struct cfg){ .id = 7 };
    __attribute__((unused)) int unused_local;
    struct msg *m = malloc(sizeof(struct msg) + 4);
    w.u = 5;
    regs.ctrl = 17;
    regs.count = 17;
    m->len = 4;
    m->data[1] = 'x';
    assert(k == 9); /* HOLDS */ // expect: holds
    assert(likely(config.vals[2] == 5) && config.vals[0] == 0); /* HOLDS */ // expect: holds
    assert(c == 1 || c == 2); /* HOLDS */ // expect: holds
    assert(w.i == 5); /* HOLDS */ // expect: holds
    assert(regs.ctrl == 1 && regs.count == 17); /* HOLDS */ // expect: holds
    assert(m->data[1] == 'x' && p->id == 7 && p->range.hi == 0); /* HOLDS */ // expect: holds
    pthread_create(&t, 0, bump, 0);
    shared_counter++;
    pthread_join(t, 0);
    assert(shared_counter == 2); /* FAILS */ // expect: violated
    asm volatile("" ::: "memory");
    return 0;
}
