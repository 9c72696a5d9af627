// The failing twin of join_waits.c: the handle is reused by a second creation, so the join
// waits for the second thread only and the first may not have run. Never `safe`.
#define HANDLE_REUSED
#define EXPECTED 3
#include "join_waits.c"
// expect at join_waits.c:32: fails (the join waits for the second thread only)
