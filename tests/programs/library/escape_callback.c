#include <assert.h>
/* `ext` may call `cb`. */
int g;
void cb(void) { g = 1; }
extern void ext(void (*f)(void));
int main(void) {
  ext(cb);
  assert(g == 0); // expect: unknown
  return 0;
}
