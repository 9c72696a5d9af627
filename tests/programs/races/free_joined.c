// Twin of free_racy.c: main joins the worker before freeing the counter.
#include <pthread.h>
#include <stdlib.h>
struct box { int count; };
void *worker(void *arg) {
  struct box *b = arg;
  b->count = b->count + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  struct box *b = malloc(sizeof(struct box));
  if (!b)
    return 1;
  b->count = 0;
  pthread_create(&t, 0, worker, b);
  pthread_join(t, 0);
  free(b);
  return 0;
}
