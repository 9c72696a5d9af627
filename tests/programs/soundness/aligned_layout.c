// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

// GCC's `aligned`: on a struct (bare `aligned` is 16 on x86-64 and i386), on a member, and
// on a typedef, where it may also lower the alignment and leaves the size alone; with
// `packed` on the same struct. The front-end once ignored them all.
struct __attribute__((aligned)) A16 { char c; };
struct AM { char c; int x __attribute__((aligned(8))); };
struct AP { char c; int x; } __attribute__((packed, aligned(2)));
typedef int aint __attribute__((aligned(16)));
typedef int lint __attribute__((__aligned__(1)));
typedef aint aint2;
struct AT { char c; aint2 x; };
struct LT { char c; lint x; };
typedef struct { char c; } T8 __attribute__((aligned(8)));
struct AN { T8 a; char b; };

void *worker(void *arg) { return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    assert(sizeof(struct A16) == 16 && _Alignof(struct A16) == 16 && sizeof(struct AM) == 16 && sizeof(struct AP) == 6 && _Alignof(struct AP) == 2 && // expect: safe
           sizeof(aint) == 4 && _Alignof(aint) == 16 && _Alignof(lint) == 1 && sizeof(struct AT) == 32 && sizeof(struct LT) == 5 &&
           sizeof(T8) == 1 && _Alignof(T8) == 8 && sizeof(struct AN) == 8);
    // The size a struct would have without the attribute.
    assert(sizeof(struct AM) == 8); // expect: violated
    return 0;
}
