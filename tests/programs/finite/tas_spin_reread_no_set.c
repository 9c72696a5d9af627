// The failing twin of `tas_spin_reread.c`: the re-read inside the spin loop does not set the
// flag, so a thread that was waiting enters without taking the lock, and a third thread's
// first test-and-set then finds the flag free: two threads inside at once.
#define SKIP_SET
#include "tas_spin_reread.c"
// expect at tas_spin_reread.c:28: fails
