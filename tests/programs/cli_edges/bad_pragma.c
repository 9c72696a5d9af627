// duet-rs: --no-whole-program --bogus
#include <assert.h>
int ready;
void init(void) { ready = 0; }
void check_ready(void) { assert(ready == 0); }
// expect-error: unknown flag `--bogus` in the `// duet-rs:` pragma
