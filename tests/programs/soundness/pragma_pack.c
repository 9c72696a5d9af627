// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

// `#pragma pack` survives preprocessing, but the parser skips it: the front-end once laid
// these structs out as if it were not there. It caps each member's alignment, `aligned`
// members' too, but not a struct's own `aligned`.
#pragma pack(push, 2)
struct P2 { char c; int x; long long y; };
struct PB { char c; int x __attribute__((aligned(8))); };
#pragma pack(1)
struct P1 { char c; int x; };
#pragma pack(pop)
struct P0 { char c; int x; };
#pragma pack(4)
struct P4 { char c; long long x; };
#pragma pack()

void *worker(void *arg) { return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    assert(sizeof(struct P2) == 14 && sizeof(struct PB) == 6 && sizeof(struct P1) == 5 && sizeof(struct P0) == 8 && sizeof(struct P4) == 12); // expect: safe
    assert(sizeof(struct P1) == sizeof(struct P0)); // expect: violated
    return 0;
}
