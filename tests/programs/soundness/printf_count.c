#include <assert.h>
#include <pthread.h>
#include <stdio.h>

// `%n` stores the number of characters printed so far: `printf` was taken to write nothing.
int n;

void *t(void *arg) {
    printf("abc%n\n", &n);
    return 0;
}

int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    assert(n == 3); // expect: holds
    assert(n == 0); // expect: fails
    return 0;
}
