// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

// `aligned(n)` on a bit-field starts it at the next multiple of n bytes (capped by
// `#pragma pack`, not undone by `packed`); the front-end only raised the record's
// alignment, so `struct A` had 8 bytes where GCC gives 16.
struct A { char c; int x : 3 __attribute__((aligned(8))); char d; };
struct __attribute__((packed)) P { char c; int x : 3 __attribute__((aligned(4))); char d; };
#pragma pack(2)
struct Q { char c; int x : 3 __attribute__((aligned(8))); char d; };
#pragma pack()
struct W { char c; long long x : 3 __attribute__((aligned(2))); char d; };

void *worker(void *arg) { return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    struct A a = {1, 2, 3};
    a.x = -1;
    assert(sizeof(struct A) == 16 && sizeof(struct P) == 8 && sizeof(struct Q) == 4 && // expect: safe
           sizeof(struct W) == (sizeof(void *) == 8 ? 8 : 4) && a.x == -1 && a.d == 3);
    assert(sizeof(struct A) == 8); // expect: violated
    return 0;
}
