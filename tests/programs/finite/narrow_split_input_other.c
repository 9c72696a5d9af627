/* The failing twin of narrow_split_input.c: the other identity is a second input, so the
 * two may both be 0 or both 1. */
#define OTHER_INPUT
#include "narrow_split_input.c"
// expect at narrow_split_input.c:22: fails
