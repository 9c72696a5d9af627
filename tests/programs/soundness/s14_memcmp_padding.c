#include <assert.h>
#include <pthread.h>
#include <string.h>

// `memcmp` compares the padding bytes too: a's are 0xff, b's 0. Only the members were compared.
struct s {
    char c;
    int i;
};
struct s a, b;
int r, same;

void *t(void *x) {
    memset(&a, 0xff, sizeof a);
    a.c = 1;
    a.i = 2;
    b.c = 1;
    b.i = 2;
    r = memcmp(&a, &b, sizeof a);
    same = a.c == b.c && a.i == b.i;
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(same == 1); // expect: safe
    assert(r == 0);    // expect: fails
    return 0;
}
