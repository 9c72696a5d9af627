// No system headers: the test also runs with --m32, whose headers a machine may lack.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
#ifndef assert
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, __FILE__, __LINE__, __func__))
#endif

// Attributes whose layout the IR cannot represent: a vector type (16 bytes under GCC, an
// `int` if the attribute were ignored) and a 128-bit integer. Declaring such a typedef is
// harmless (`unused_vector`); using one makes the file unknown, never a silent wrong size.
typedef int v4si __attribute__((vector_size(16)));
typedef int unused_vector __attribute__((vector_size(8)));
typedef unsigned wide __attribute__((mode(TI)));

void *worker(void *arg) { return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    wide w = 1;
    assert(sizeof(v4si) == 16 && w == 1); // expect: unknown
    assert(sizeof(v4si) == sizeof(int)); // expect: unknown
    return 0;
}
