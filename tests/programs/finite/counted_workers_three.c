/* The failing twin of counted_workers.c: the loop creates three workers, so `main` may read
 * x = 3 once all three have run. */
#define WORKERS 3
#include "counted_workers.c"
// expect at counted_workers.c:31: fails (three workers may each add 1)
