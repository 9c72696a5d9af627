// No system headers: the test runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void *malloc(unsigned long);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))

// Under --m32 the bounded search gave both assertions `safe`: a pointer read back from
// memory was constrained to 32 bits (by its type, and by COARSEN's range hint), while the
// flat layout's heap addresses lie beyond 2^32, so every path through the read vanished.
int *g;

void *t(void *a) { return 0; }

int main(void) {
    pthread_t x;
    pthread_create(&x, 0, t, 0);
    g = malloc(sizeof(int));
    if (!g)
        return 0;
    *g = 1;
    assert(*g == 1); // expect: holds
    assert(*g == 2); // expect: violated
    return 0;
}
// PARAM: --m32
