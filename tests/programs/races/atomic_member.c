// An `_Atomic` member: its stores are atomic, which the front-end does not track per member.
// The replayed interleaving is no race then, and the verdict stays `unknown`.
#include <pthread.h>
struct s {
  int plain;
  _Atomic int ready;
} box;
void *worker(void *arg) {
  box.ready = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  box.ready = 2;
  return 0;
}
