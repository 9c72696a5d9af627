// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

// Bit-fields share storage units: the front-end once gave each one the whole size of its
// type. A bit-field that would straddle a unit of its type starts the next one (not in a
// packed struct); unnamed ones do not align the struct; a zero-width one ends the unit.
struct B { char c; int x : 4; int y : 28; char z; };
struct BP { char c; int x : 4; int y : 28; char z; } __attribute__((packed));
struct BS { char c; short x : 4; int y : 7; };
struct BU { char c; int : 4; char d; };
struct BZ { char c : 2; int : 0; char d; };
union UB { int x : 4; char c; };

void *worker(void *arg) { return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    struct B b = {1, 2, 3, 4};
    b.y = 100;
    assert(sizeof(struct B) == 12 && sizeof(struct BP) == 6 && sizeof(struct BS) == 4 && sizeof(struct BU) == 3 && _Alignof(struct BU) == 1 && // expect: safe
           sizeof(struct BZ) == 5 && sizeof(union UB) == 4 && b.x == 2 && b.y == 100 && b.z == 4);
    assert(sizeof(struct B) == 16); // expect: violated
    return 0;
}
