// The failing twin of many_sites.c: one call site (the third of t2) passes 2, so the
// assertion fails in that copy of `step`. The copy is identical to the others up to the
// renaming of its parameter, but its entry state differs, so no summary of the others
// applies to it: never `safe`.
#define T2_THIRD_ARG 2
#include "many_sites.c"
// expect at many_sites.c:12: violated (the third call of t2 passes 2)
