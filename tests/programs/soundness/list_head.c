// A bare `struct list_head` in a global (no entry embeds it), walked by `list_for_each_entry`:
// `container_of` of the head lands on `c`, which holds no `struct s`, and the loop test stops
// there before any member is read. The first assertion holds; the second fails (the first
// entry added, now last in the list, has datum 1).
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
struct list_head { struct list_head *next, *prev; };
struct s { int datum; int tag; struct list_head list; };
struct cache { struct list_head slot[2]; } c;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
#define entry(p) ((struct s *)((char *)(p) - (size_t)&((struct s *)0)->list))
static void add(struct list_head *n, struct list_head *h) {
  n->next = h->next;
  n->prev = h;
  h->next->prev = n;
  h->next = n;
}
void *walk(void *arg) {
  pthread_mutex_lock(&m);
  for (struct s *pos = entry(c.slot[1].next); &pos->list != &c.slot[1]; pos = entry(pos->list.next)) {
    assert(pos->tag == 7); // expect: holds
    assert(pos->datum == 0); // expect: violated
  }
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  for (int i = 0; i < 2; i++) {
    c.slot[i].next = &c.slot[i];
    c.slot[i].prev = &c.slot[i];
  }
  for (int j = 1; j >= 0; j--) {
    struct s *e = malloc(sizeof *e);
    e->datum = j;
    e->tag = 7;
    add(&e->list, &c.slot[1]);
  }
  pthread_t th;
  pthread_create(&th, 0, walk, 0);
  pthread_join(th, 0);
  return 0;
}
