// A failure after an unmodelled call whose result nothing reads (`fprintf`'s count) is a real
// one. The first candidate the search finds takes `sscanf`'s made-up count and rests on it;
// searching again among executions that take no made-up value must not count `fprintf` as one.
// Reduced from SV-COMP's pthread/reorder_2. With argc == 1 (n stays 2): set writes a = 1, then
// chk reads a == 1 and b == 0 before set writes b = -1.
#include <pthread.h>
#include <stdio.h>
extern void abort(void);
void reach_error(void);
int n = 2;
int a, b;
void *set(void *p) { a = 1; b = -1; return 0; }
void *chk(void *p) {
  if (!((a == 0 && b == 0) || (a == 1 && b == -1))) {
#ifdef READ_THE_COUNT
    if (fprintf(stderr, "Bug\n") == 77)
#else
    fprintf(stderr, "Bug\n");
#endif
    reach_error(); // expect: violated
    abort();
  }
  return 0;
}
int main(int argc, char **argv) {
  pthread_t ts[2], tc[2];
  int i;
  if (argc != 1) sscanf(argv[1], "%d", &n);
  for (i = 0; i < n; i++) pthread_create(&ts[i], 0, set, 0);
  for (i = 0; i < n; i++) pthread_create(&tc[i], 0, chk, 0);
  return 0;
}
