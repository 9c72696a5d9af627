/* An array declared without a length takes it from its initializer. Left unknown, its
 * `sizeof` was 0: the first assertion was reported violated and the second, which fails,
 * safe. */
#include <pthread.h>
extern void __VERIFIER_assert(int);
int a[] = {1, 2, 3};
char s[] = "ab";
unsigned long n;
int last;
void *t(void *arg) {
    n = sizeof(a) / sizeof(a[0]);
    last = a[n - 1];
    return 0;
}
int main(void) {
    int l[] = {[4] = 1};
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    __VERIFIER_assert(n == 3 && last == 3 && sizeof(s) == 3 && sizeof(l) == 5 * sizeof(int)); // expect: safe
    __VERIFIER_assert(n != 3); // expect: violated
    return 0;
}
