// A ring of N slots under one mutex: producers add up to n items, clamped to the free space,
// and advance the tail index with wrap-around; consumers take up to n items, clamped to what is
// there, and advance the head. Clients run in any number of threads.
// Truth: all updates happen under `r.lock`. The producer computes `space = N - r.count` and clamps
// `n <= space`, so `r.count + n <= N`; the consumer clamps `n <= r.count`, so `r.count - n >= 0`.
// Indices stay in [0, N): `idx + n < 2N` and one subtraction of N wraps it. All four
// assertions hold for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

#define N 16

struct ring {
    pthread_mutex_t lock;
    int head;
    int tail;
    int count;
} r;

int ring_put(int n) {
    pthread_mutex_lock(&r.lock);
    int space = N - r.count;
    if (n > space)
        n = space;
    r.tail = r.tail + n;
    if (r.tail >= N)
        r.tail = r.tail - N;
    r.count = r.count + n;
    __VERIFIER_assert(r.count <= N); // expect: safe
    __VERIFIER_assert(r.tail < N); // expect: safe
    pthread_mutex_unlock(&r.lock);
    return n;
}

int ring_get(int n) {
    pthread_mutex_lock(&r.lock);
    int avail = r.count;
    if (n > avail)
        n = avail;
    r.head = r.head + n;
    if (r.head >= N)
        r.head = r.head - N;
    r.count = r.count - n;
    __VERIFIER_assert(r.count >= 0); // expect: safe
    __VERIFIER_assert(r.head < N); // expect: safe
    pthread_mutex_unlock(&r.lock);
    return n;
}

void *client(void *arg) {
    while (__VERIFIER_nondet_int()) {
        int n = __VERIFIER_nondet_int();
        __VERIFIER_assume(n >= 0 && n <= N);
        if (__VERIFIER_nondet_int())
            ring_put(n);
        else
            ring_get(n);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    while (__VERIFIER_nondet_int())
        pthread_create(&t, 0, client, 0);
    return 0;
}
