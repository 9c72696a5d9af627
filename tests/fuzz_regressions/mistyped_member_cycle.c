/* Found by the fuzzer: a pointer to a struct's lock field, passed around a cycle of calls through a variable and used as a pointer to the struct again; the alias model's member paths grew without end. */




typedef unsigned long pthread_t;
typedef struct { int lock; } pthread_mutex_t;
typedef struct { int c; } pthread_cond_t;
typedef struct { int a; } pthread_attr_t;
typedef struct { int a; } pthread_mutexattr_t;



int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void pthread_exit(void *);
int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock;
int pthread_mutex_trylock(pthread_mutex_t *);
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_signal(pthread_cond_t *);
int pthread_cond_broadcast(pthread_cond_t *);
pthread_t pthread_self(void);
struct dev { int state; pthread_mutex_t lock; }; struct dev the_dev; pthread_mutex_t m;
void *worker(void *arg) { struct dev *d = arg; pthread_mutex_lock(&d->lock); pthread_mutex_unlock(&d->lock); return 0; }
void *checker(void *arg) { struct dev *d = arg; pthread_mutex_lock(&d->lock); pthread_mutex_unlock(&d->lock); return 0; }
int main(void) { pthread_t t1, t2; pthread_create(&t1, 0, worker, &the_dev); pthread_create(&t2, 0, checker, &the_dev); return 0; }
