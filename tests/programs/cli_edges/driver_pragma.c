// duet-rs: --no-whole-program
// No main: init() runs first and every other function is a thread, as the pragma says.
#include <assert.h>
int ready;
void init(void) { ready = 0; }
void check_ready(void) { assert(ready == 0); } // expect: safe
