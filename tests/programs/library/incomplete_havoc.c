#include <assert.h>
struct node { int v; struct node *next; };
extern void walk(struct node *n);
struct node second = { 2, 0 };
struct node first = { 1, &second };
int main(void) {
  walk(&first);
  assert(second.v == 2); // expect: fails
  return 0;
}
