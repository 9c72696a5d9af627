// A reference-counted object that any number of workers use: main takes a reference for each
// worker before creating it, and the worker puts it when done; the last put frees the object.
// Truth: main keeps its own reference for ever, so `refcnt == 1 + (workers still holding)`
// holds in every state; a worker's put leaves refcnt >= 1, `freed` is never set, and the
// worker's assertion holds for every thread count.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

struct obj {
    int refcnt;
    int freed;
    int data;
};

struct obj o;

void obj_put(struct obj *p) {
    if (__sync_sub_and_fetch(&p->refcnt, 1) == 0)
        p->freed = 1;
}

void *worker(void *arg) {
    struct obj *p = arg;
    __VERIFIER_assert(!p->freed); // expect: safe [coarsen]
    obj_put(p);
    return 0;
}

int main(void) {
    pthread_t t;
    o.refcnt = 1;
    while (__VERIFIER_nondet_int()) {
        __sync_fetch_and_add(&o.refcnt, 1);
        pthread_create(&t, 0, worker, &o);
    }
    return 0;
}
