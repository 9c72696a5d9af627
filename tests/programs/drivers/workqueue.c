/* A work item and a timer whose callbacks are registered through pointers (INIT_WORK,
 * setup_timer) and run by worker threads that call them through the struct.
 */
#include <pthread.h>
#include <assert.h>

struct work_struct {
    void (*func)(struct work_struct *);
    int pending;
};

struct timer_list {
    void (*function)(unsigned long);
    unsigned long data;
};

#define INIT_WORK(w, f) do { (w)->func = (f); (w)->pending = 0; } while (0)

struct my_dev {
    pthread_mutex_t lock;
    struct work_struct work;
    struct timer_list timer;
    int events;
    int ticks;
};

static struct my_dev dev;

static void my_work_handler(struct work_struct *w)
{
    pthread_mutex_lock(&dev.lock);
    dev.events++;
    pthread_mutex_unlock(&dev.lock);
}

static void my_timer_fn(unsigned long data)
{
    dev.ticks += (int)data;
}

static void setup_timer(struct timer_list *t, void (*fn)(unsigned long), unsigned long data)
{
    t->function = fn;
    t->data = data;
}

static void *worker_thread(void *arg)
{
    struct work_struct *w = arg;
    w->func(w);
    return 0;
}

static void *timer_thread(void *arg)
{
    struct timer_list *t = arg;
    t->function(t->data);
    return 0;
}

int main(void)
{
    pthread_t w1, w2, tm;
    pthread_mutex_init(&dev.lock, 0);
    INIT_WORK(&dev.work, my_work_handler);
    setup_timer(&dev.timer, my_timer_fn, 3);
    pthread_create(&w1, 0, worker_thread, &dev.work);
    pthread_create(&w2, 0, worker_thread, &dev.work);
    pthread_create(&tm, 0, timer_thread, &dev.timer);
    pthread_join(w1, 0);
    pthread_join(w2, 0);
    assert(dev.events == 2); /* HOLDS */ // expect: holds
    assert(dev.ticks == 0); /* FAILS */ // expect: violated
    pthread_join(tm, 0);
    assert(dev.ticks == 3); /* HOLDS */ // expect: holds
    return 0;
}
