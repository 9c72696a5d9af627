#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

// The driver pattern: status bits of a device reached through a shared pointer, one set under
// the device's lock, the other from an "interrupt" that takes no lock. Each store rewrites the
// whole byte, so either may lose the other's bit: the failing assertion was `safe`. The store
// reads the pointer once: every access of the byte goes to the object it named. `code` is no
// bit-field and shares no byte with them.
struct dev { unsigned busy : 1; unsigned err : 1; int code; };
struct dev *d;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *irq(void *x) { d->err = 1; d->code = 9; return 0; }
void *work(void *x) { pthread_mutex_lock(&m); d->busy = 1; pthread_mutex_unlock(&m); return 0; }

int main(void) {
    d = calloc(1, sizeof *d);
    if (!d)
        return 0;
    pthread_t a, b;
    pthread_create(&a, 0, irq, 0);
    pthread_create(&b, 0, work, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(d->code == 9); // expect: safe
    assert(d->err == 1); // expect: violated
    return 0;
}
