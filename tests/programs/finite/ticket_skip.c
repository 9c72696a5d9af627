#include <pthread.h>
#include <assert.h>

// A ticket lock where the third thread skips the lock.
int next_ticket = 0, now_serving = 0, inside = 0;

int __VERIFIER_atomic_take(void) {
    int t = next_ticket;
    next_ticket = t + 1;
    return t;
}

void worker(void) {
    for (int round = 0; round < 2; round++) {
        int my = __VERIFIER_atomic_take();
        while (now_serving != my) {}
        inside = inside + 1;
        assert(inside == 1); // expect: fails
        inside = inside - 1;
        now_serving = now_serving + 1;
    }
}

void rogue(void) {
    inside = inside + 1;
    assert(inside == 1); // expect: fails
    inside = inside - 1;
}

void *t0(void *arg) { worker(); return 0; }
void *t1(void *arg) { worker(); return 0; }
void *t2(void *arg) { rogue(); return 0; }

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, t0, 0);
    pthread_create(&b, 0, t1, 0);
    pthread_create(&c, 0, t2, 0);
    return 0;
}
