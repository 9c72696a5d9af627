#include <assert.h>
#include <stdlib.h>
/* `realloc` keeps the contents; of NULL it allocates; to size 0 it frees (glibc). */
int main(void) {
  int *p = malloc(2 * sizeof(int));
  p[0] = 1;
  p[1] = 2;
  int *q = realloc(p, 4 * sizeof(int));
  assert(q == NULL || q[0] == 1); // expect: safe
  assert(q == NULL || q[1] == 2); // expect: safe
  int *r = realloc(NULL, sizeof(int));
  *r = 3;
  assert(r != NULL && *r == 3); // expect: safe
  assert(realloc(r, 0) == NULL); // expect: safe
  return 0;
}
