// goblint's `evilcollapse`: slot 0's head is made to point into slot 1's list, so the walk of
// slot 0 reaches slot 1's head and takes it for an entry: `pos->datum` then reads the bytes
// of `c.slot[0].prev`, a pointer, which no analysed execution models. The first assertion
// holds (it precedes the walk); the second can fail on a real machine and must never be proved.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
struct list_head { struct list_head *next, *prev; };
struct s { int datum; struct list_head list; };
struct cache { struct list_head slot[2]; } c;
#define entry(p) ((struct s *)((char *)(p) - (size_t)&((struct s *)0)->list))
static void linked(struct s *e) { assert(c.slot[1].next == &e->list); } // expect: unknown
void *walk(void *arg) {
  struct s *pos = entry(c.slot[0].next);
  for (int k = 0; k < 2 && &pos->list != &c.slot[0]; k++) {
    assert(pos->datum == 0); // expect: unknown
    pos = entry(pos->list.next);
  }
  return 0;
}
int main(void) {
  for (int i = 0; i < 2; i++) {
    c.slot[i].next = &c.slot[i];
    c.slot[i].prev = &c.slot[i];
  }
  struct s *e = malloc(sizeof *e);
  e->datum = 0;
  e->list.next = &c.slot[1];
  e->list.prev = &c.slot[1];
  c.slot[1].next = &e->list;
  c.slot[1].prev = &e->list;
  linked(e);
  c.slot[0].next = c.slot[1].next;
  pthread_t th;
  pthread_create(&th, 0, walk, 0);
  pthread_join(th, 0);
  return 0;
}
