// The twin of driver_pragma.c without the pragma: no main, so an input error.
#include <assert.h>
int ready;
void init(void) { ready = 0; }
void check_ready(void) { assert(ready == 0); }
// expect-error: no `main` function
