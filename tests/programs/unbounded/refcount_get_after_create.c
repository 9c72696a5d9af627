// Twin of refcount_get_put.c: main takes the worker's reference only after creating it.
// Truth: the first worker may put before main's get, taking refcnt from 1 to 0 and setting
// `freed`; a second worker then finds the object freed, so the assertion fails.
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
    __VERIFIER_assert(!p->freed); // expect: violated
    obj_put(p);
    return 0;
}

int main(void) {
    pthread_t t;
    o.refcnt = 1;
    while (__VERIFIER_nondet_int()) {
        pthread_create(&t, 0, worker, &o);
        __sync_fetch_and_add(&o.refcnt, 1);
    }
    return 0;
}
