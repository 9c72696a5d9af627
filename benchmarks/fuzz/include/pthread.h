/* A minimal <pthread.h> for fuzzing: small preprocessed seeds parse in microseconds. */
#ifndef FUZZ_PTHREAD_H
#define FUZZ_PTHREAD_H
typedef unsigned long pthread_t;
typedef struct { int lock; } pthread_mutex_t;
typedef struct { int c; } pthread_cond_t;
typedef struct { int a; } pthread_attr_t;
typedef struct { int a; } pthread_mutexattr_t;
#define PTHREAD_MUTEX_INITIALIZER { 0 }
#define PTHREAD_COND_INITIALIZER { 0 }
#define NULL ((void *)0)
int pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void pthread_exit(void *);
int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_mutex_trylock(pthread_mutex_t *);
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_signal(pthread_cond_t *);
int pthread_cond_broadcast(pthread_cond_t *);
pthread_t pthread_self(void);
#endif
