// A bare list head that is a local of `main`, walked by another thread: a guard in that
// thread could not name `main`'s object by its address, so the walk stays an unsupported
// construct. The first assertion holds; the second fails (the entry's datum is 1).
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
struct list_head { struct list_head *next, *prev; };
struct s { int datum; int tag; struct list_head list; };
#define entry(p) ((struct s *)((char *)(p) - (size_t)&((struct s *)0)->list))
void *walk(void *arg) {
  struct list_head *head = arg;
  for (struct s *pos = entry(head->next); &pos->list != head; pos = entry(pos->list.next)) {
    assert(pos->tag == 7); // expect: holds
    assert(pos->datum == 0); // expect: fails
  }
  return 0;
}
int main(void) {
  struct list_head head;
  struct s *e = malloc(sizeof *e);
  e->datum = 1;
  e->tag = 7;
  e->list.next = &head;
  e->list.prev = &head;
  head.next = &e->list;
  head.prev = &e->list;
  pthread_t th;
  pthread_create(&th, 0, walk, &head);
  pthread_join(th, 0);
  return 0;
}
