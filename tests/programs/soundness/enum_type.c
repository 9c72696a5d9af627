// GCC gives an enumeration with no negative value the type `unsigned int`, one with a value
// beyond 32 bits a 64-bit type, and a constant that does not fit `int` its enumeration's
// type; the front-end took every plain enumeration for `int`, so the first assertion was
// `violated` and the second `safe`.
// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif
enum E { A, B, C, D };
enum L { N = -1, M = 0x80000000u };
enum U { P = 0x100000000 };
struct S { enum E f : 2; };
struct S s;
enum E g;
void *t(void *a) { s.f = D; return 0; }
int main(void) {
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  enum E e = g;
  e--;
  assert(e > 5 && e - 1 > 0 && A - 1 < 0 && (enum E)-1 > 0 && s.f == 3 && sizeof(enum L) == 8 && (enum L)-1 < 0 && sizeof(M) == 8 && // expect: safe
         sizeof(enum U) == 8 && (enum U)-1 > 0);
  assert(e < 0 || s.f < 0); // expect: violated
  return 0;
}
