/* Every thread's copy of a thread-local object starts with its initialiser (C11 6.2.4p4),
 * and a `static _Thread_local` local is one object per thread. The initialiser was stored
 * only into the root's copy (other threads started at zero) and the static local was one
 * object shared by all threads: the first assertion was violated, the second safe. */
#include <pthread.h>
#include <assert.h>
__thread int x = 5;
void *t(void *a) {
    static _Thread_local int n = 1;
    n++;
    assert(x == 5 && n == 2); // expect: safe
    assert(x != 5 || n != 2); // expect: violated
    return 0;
}
int main(void) {
    pthread_t a, b;
    x = 7;
    pthread_create(&a, 0, t, 0);
    pthread_create(&b, 0, t, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
