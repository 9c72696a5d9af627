/* container_of over a device struct, as Linux writes it (GNU typeof, a statement expression,
 * offsetof): each worker gets the embedded `struct device` and finds its `struct my_dev`.
 * Marked assertions: HOLDS in every execution, FAILS in some.
 */
#include <pthread.h>
#include <assert.h>
#include <stddef.h>

#define container_of(ptr, type, member) ({ \
        const typeof(((type *)0)->member) *__mptr = (ptr); \
        (type *)((char *)__mptr - offsetof(type, member)); })
#define container_of_old(ptr, type, member) \
        ((type *)((char *)(ptr) - (unsigned long)&((type *)0)->member))

struct device {
    int id;
    int refs;
};

struct my_dev {
    pthread_mutex_t lock;
    int counter;
    struct device dev;
    int racy;
};

static struct my_dev mydev;

static void *worker(void *arg)
{
    struct device *d = arg;
    struct my_dev *m = container_of(d, struct my_dev, dev);
    pthread_mutex_lock(&m->lock);
    m->counter++;
    pthread_mutex_unlock(&m->lock);
    m->racy++;
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_mutex_init(&mydev.lock, 0);
    mydev.dev.id = 7;
    assert(container_of(&mydev.dev, struct my_dev, dev) == &mydev); /* HOLDS */ // expect: holds
    assert(container_of_old(&mydev.dev, struct my_dev, dev)->dev.id == 7); /* HOLDS */ // expect: holds
    pthread_create(&t1, 0, worker, &mydev.dev);
    pthread_create(&t2, 0, worker, &mydev.dev);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(mydev.counter == 2); /* HOLDS */ // expect: holds
    assert(mydev.racy == 2); /* FAILS */ // expect: violated
    return 0;
}
