// `free` writes the object it releases: main frees the counter while the worker may still
// increment it.
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
  free(b);
  return 0;
}
