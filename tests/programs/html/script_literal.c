/* Program text that is markup: the HTML report must show it as text. Were the string literal
 * pasted into the page raw, its script would close the page's own and mark the body as injected. */
#include <pthread.h>

extern void __VERIFIER_assert(int cond);

const char *s = "</script><script>document.body.dataset.injected = '1';</script><!--";
int x = 0; /* <b>bold</b> & "quoted" 'single' */

void *worker(void *arg) {
    x = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    __VERIFIER_assert(s[0] == '<' && x <= 1);  // expect: holds
    pthread_join(t, 0);
    return 0;
}
