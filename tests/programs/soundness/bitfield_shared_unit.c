#include <assert.h>
#include <pthread.h>

// A store into a bit-field is a load, change and store of the bytes that hold it (GCC:
// `movzbl`, `and`/`or`, `movb`): a neighbour in the same byte written by another thread in
// between gets back the value the load saw. The IR gave each bit-field its own slot, so the
// lost update was missed and the assertion that can fail was `safe`. A field in another byte
// is not touched by the store.
struct flags { unsigned a : 4; unsigned b : 4; unsigned c : 8; };
struct flags s;

void *set_a(void *x) { s.a = 3; return 0; }
void *set_b(void *x) { s.b = 5; return 0; }
void *set_c(void *x) { s.c = 7; return 0; }

int main(void) {
    pthread_t ta, tb, tc;
    pthread_create(&ta, 0, set_a, 0);
    pthread_create(&tb, 0, set_b, 0);
    pthread_create(&tc, 0, set_c, 0);
    pthread_join(ta, 0);
    pthread_join(tb, 0);
    pthread_join(tc, 0);
    assert(s.c == 7); // expect: safe
    assert(s.a == 3 && s.b == 5); // expect: violated
    return 0;
}
