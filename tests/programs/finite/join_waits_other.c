// The failing twin of join_waits.c: a second thread increments too and nobody joins it, so g
// may still be 2 where main expects 3. Never `safe`.
#define SECOND_THREAD
#define EXPECTED 3
#include "join_waits.c"
// expect at join_waits.c:32: fails (the unjoined thread may not have run)
