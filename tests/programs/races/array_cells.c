// Two threads write different cells of one array: the alias model summarises the array, so
// race freedom is not claimed, and no interleaving makes the two writes touch one cell.
#include <pthread.h>
int a[2];
void *worker(void *arg) {
  a[1] = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  a[0] = 1;
  return 0;
}
