// The failing twin of fixed_bound_ok.c: the bound starts at 3, but main sets it to 4 before the
// loops, so four workers run and the count is 4. A global written after its initialiser is no
// loop bound: never `safe`.
#define BOUND_DECL int N = 3;
#define BOUND_SET N = 4;
#include "fixed_bound_ok.c"
