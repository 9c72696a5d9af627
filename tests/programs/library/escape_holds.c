#include <assert.h>
#include <pthread.h>
/* Whatever the undefined functions do with what they received, `h`'s address never
   reaches them. */
struct S { int *p; int v; };
int g;
int h;
extern void ext(struct S *s);
extern void reg(int *p);
extern void trig(void);
extern int *get(void);
void *t(void *a) {
  trig();
  return 0;
}
int main(void) {
  pthread_t id;
  struct S s;
  s.p = &g;
  h = 0;
  ext(&s);
  reg(&g);
  pthread_create(&id, 0, t, 0);
  int *p = get();
  pthread_join(id, 0);
  assert(h == 0); // expect: holds
  return 0;
}
