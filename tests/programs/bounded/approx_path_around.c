/* A violation on the path around an unmodelled call: with `argc != 3` the counts stay 2, two
 * writers and two checkers run, and a checker can see `a == 1` before `b == -1` (reduced from
 * SV-COMP's pthread/reorder_2). The solver's first candidate may instead go through `sscanf`,
 * whose results the IR over-approximates; that candidate is no execution, so the search asks
 * again for one that reads no over-approximated value.
 *
 * Expected: violated. With -DONLY_THROUGH_CALL the assertion can fail only through a value
 * `sscanf` returns: then unknown (never violated, never safe).
 */
#include <pthread.h>
#include <stdio.h>

extern void reach_error(void);

static int iSet = 2;
static int iCheck = 2;
static int a = 0;
static int b = 0;

void *setter(void *arg) {
    a = 1;
    b = -1;
    return NULL;
}

void *checker(void *arg) {
    if (!((a == 0 && b == 0) || (a == 1 && b == -1)))
        reach_error(); // expect: violated
    return NULL;
}

int main(int argc, char *argv[]) {
    if (argc == 3) {
        sscanf(argv[1], "%d", &iSet);
        sscanf(argv[2], "%d", &iCheck);
    }
#ifdef ONLY_THROUGH_CALL
    if (iSet == 2)
        return 0;
#endif
    pthread_t s[2], c[2];
    for (int i = 0; i < iSet && i < 2; i++)
        pthread_create(&s[i], NULL, setter, NULL);
    for (int i = 0; i < iCheck && i < 2; i++)
        pthread_create(&c[i], NULL, checker, NULL);
    return 0;
}
