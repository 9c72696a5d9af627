// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void *memcpy(void *, const void *, unsigned long);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

// GCC's `packed` (after the keyword, after the closing brace, or on one member) gives
// members alignment 1; the front-end once ignored it, so `sizeof(struct PK)` was 8 and a
// copy of its 5 bytes lost the top of `x`. (GCC gives the same layout on x86-64 and i386.)
struct __attribute__((packed)) PK { char c; int x; };
struct PT { char c; int x; } __attribute__((__packed__));
struct PM { char c; int x __attribute__((packed)); short s; };
struct PA { char c; struct PK a[3]; };
union __attribute__((packed)) PU { char b[5]; int x; };

struct PK g;

void *worker(void *arg) { return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    struct PK s = {1, 0x0100002a};
    struct PK d = {0, 0};
    struct PK e = {0, 0};
    memcpy(&d, &s, 5);
    memcpy(&e, &s, 4);
    assert(sizeof(struct PK) == 5 && sizeof(struct PT) == 5 && _Alignof(struct PT) == 1 && sizeof(struct PM) == 8 && _Alignof(struct PM) == 2 && // expect: safe
           sizeof(struct PA) == 16 && sizeof(union PU) == 5 && d.x == 0x0100002a && d.c == 1);
    // Four bytes leave the top byte of `e.x` as it was.
    assert(e.x == s.x); // expect: unknown
    return 0;
}
