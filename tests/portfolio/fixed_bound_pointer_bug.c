// The failing twin of fixed_bound_ok.c: the bound is written through a pointer, so no write
// names it, and four workers run. A global whose address is taken is no loop bound: never
// `safe`.
#define BOUND_DECL int N = 3; int *np = &N;
#define BOUND_SET *np = 4;
#include "fixed_bound_ok.c"
