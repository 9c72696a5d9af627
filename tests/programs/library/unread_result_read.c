// The twin of unread_result_fails.c: here the failure needs `fprintf` to return 77, a value
// only the over-approximation of the unmodelled call makes up. Never `violated`, never `safe`.
#define READ_THE_COUNT
#include "unread_result_fails.c"
// expect at unread_result_fails.c:20: unknown (the failure needs a count only the approximation of fprintf makes up)
// PARAM: --search-time 2
