/* Found by the fuzzer: a variable named like a built-in, called. The call graph took it for the built-in and missed the recursion through it, so inlining ran until memory was exhausted. */
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_mutex_unlock;
int x;
void *worker(void *arg) { x = 1; pthread_mutex_unlock(&x); return 0; }
void *checker(void *arg) { pthread_mutex_unlock(&x); return 0; }
int main(void) { pthread_t t1, t2; pthread_create(&t1, 0, worker, 0); pthread_create(&t2, 0, checker, 0); return 0; }
