// Twin of refcount_get_put.c: main forgets to take a reference for the worker it creates.
// Truth: with two workers, the first one's put takes refcnt from 1 to 0 and sets `freed`; the
// second worker then finds the object freed, so the assertion fails.
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
    }
    return 0;
}
