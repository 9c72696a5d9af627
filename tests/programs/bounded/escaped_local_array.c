/* A thread's local array escapes to main, and the thread reads an element nobody wrote:
 * its value is indeterminate, so the failure is reachable. COARSEN's data flow lets that
 * read come from the thread's entry (the array's contents when the thread starts), which
 * the bounded search must keep as a source when COARSEN's hints narrow the encoding. */
#include <pthread.h>
extern void reach_error(void);
int *gp;
void *t(void *arg) {
    int x[2];
    gp = &x[0];
    if (x[1] == 5)
        reach_error(); // expect: violated
    return 0;
}
int main(void) {
    pthread_t a;
    pthread_create(&a, 0, t, 0);
    if (gp)
        *gp = 1;
    pthread_join(a, 0);
    return 0;
}
