/* GCC's `$` in identifiers, as SV-COMP's weak-memory tasks spell their instrumentation; a
 * `$` in a literal stays. The first assertion holds, the second fails. */
#include <pthread.h>
#include <string.h>
extern void __VERIFIER_assert(int);
int y$w_buff0 = 0, main$guard = 0;
void *P0(void *arg) {
    y$w_buff0 = 1;
    return 0;
}
int main(void) {
    pthread_t t$0;
    pthread_create(&t$0, 0, P0, 0);
    pthread_join(t$0, 0);
    main$guard = y$w_buff0 == 1 && strlen("a$b") == 3 && "a$b"[1] == '$';
    __VERIFIER_assert(main$guard); // expect: safe
    __VERIFIER_assert(!main$guard); // expect: violated
    return 0;
}
