/* The failing twin of narrow_mode_peterson.c: `main` sets the mode only after creating the
 * workers, so both may read mode 0, skip the protocol and meet inside. */
#define MODE_LATE
#include "narrow_mode_peterson.c"
// expect at narrow_mode_peterson.c:21: fails
// expect at narrow_mode_peterson.c:34: fails
