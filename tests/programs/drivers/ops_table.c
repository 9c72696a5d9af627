/* An ops table whose callbacks run as threads, Whoop-style: each entry point of the table is
 * started as a pthread by a wrapper that calls it through the table.
 * The threads are started in a loop of three iterations, so the race needs bound 3.
 */
#include <pthread.h>
#include <assert.h>

struct file { int f_pos; };

struct file_operations {
    int (*open)(struct file *);
    int (*read)(struct file *, int);
    int (*write)(struct file *, int);
    int (*release)(struct file *);
};

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static int opened;
static int data;
static int unlocked_writes;

static int dev_open(struct file *f)
{
    pthread_mutex_lock(&dev_lock);
    opened++;
    pthread_mutex_unlock(&dev_lock);
    f->f_pos = 0;
    return 0;
}

static int dev_read(struct file *f, int n)
{
    int v;
    pthread_mutex_lock(&dev_lock);
    v = data;
    assert(v == data); /* HOLDS */ // expect: holds
    pthread_mutex_unlock(&dev_lock);
    return v + n;
}

static int dev_write(struct file *f, int n)
{
    pthread_mutex_lock(&dev_lock);
    data = n;
    pthread_mutex_unlock(&dev_lock);
    unlocked_writes = n;
    return n;
}

static struct file_operations fops = {
    .open = dev_open,
    .read = dev_read,
    .write = dev_write,
};

static struct file file0, file1;

static void *whoop_wrapper_read(void *arg)
{
    fops.read(&file0, 1);
    return 0;
}

static void *whoop_wrapper_write(void *arg)
{
    int r = fops.write(&file1, 5);
    assert(r == 5); /* HOLDS */ // expect: holds
    assert(unlocked_writes == 5); /* FAILS */ // expect: violated
    return 0;
}

static void *whoop_wrapper_write2(void *arg)
{
    fops.write(&file1, 6);
    return 0;
}

int main(void)
{
    pthread_t t[3];
    void *(*entries[3])(void *) = { whoop_wrapper_read, whoop_wrapper_write, whoop_wrapper_write2 };
    int i;
    assert(fops.release == 0); /* HOLDS */ // expect: holds
    assert(fops.open(&file0) == 0); /* HOLDS */ // expect: holds
    for (i = 0; i < 3; i++)
        pthread_create(&t[i], 0, entries[i], 0);
    for (i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(opened == 1); /* HOLDS */ // expect: holds
    return 0;
}
