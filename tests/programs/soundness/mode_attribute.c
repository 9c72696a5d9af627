// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

// GCC's `mode` sets an integer's width (signedness stays the base type's); the front-end
// once ignored it, so `di` had 32 bits and `uqi` wrapped at 2^32.
typedef int di __attribute__((mode(DI)));
typedef unsigned int uqi __attribute__((__mode__(__QI__)));
typedef int shi __attribute__((mode(HI)));
typedef unsigned wd __attribute__((mode(word)));
typedef int __attribute__((mode(pointer))) ptr_int;
typedef int by __attribute__((mode(byte)));

struct R { char c; di d; };

void *worker(void *arg) { return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    di big = 1;
    big = big << 40;
    uqi u = 255;
    u++;
    shi h = 32767;
    h++;
    by b = 127;
    b++;
    assert(sizeof(di) == 8 && big > 0 && u == 0 && h == -32768 && b == -128 && sizeof(wd) == sizeof(void *) && sizeof(ptr_int) == sizeof(void *) && // expect: safe
           sizeof(struct R) == (sizeof(void *) == 8 ? 16 : 12) && (wd)-1 > 0);
    // `uqi` is unsigned: it wraps to 0, never below.
    assert(u == 256 || (uqi)(u - 1) < 0); // expect: violated
    return 0;
}
