// The racing twin: the writer makes a value negative without the lock, so the walker may see
// it (at the list's head, inside the exactly inlined depth: a real, replayed violation).
#include <pthread.h>
#include <assert.h>

struct node {
    int val;
    struct node *next;
};

// Twelve nodes, more than the exactly inlined depth: the walk enters the shared copy.
extern struct node n0, n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11;
struct node n0 = {0, &n1};
struct node n1 = {1, &n2};
struct node n2 = {2, &n3};
struct node n3 = {3, &n4};
struct node n4 = {4, &n5};
struct node n5 = {5, &n6};
struct node n6 = {6, &n7};
struct node n7 = {7, &n8};
struct node n8 = {8, &n9};
struct node n9 = {9, &n10};
struct node n10 = {10, &n11};
struct node n11 = {11, 0};
struct node *head = &n0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int walk(struct node *n) {
    if (n == 0)
        return 0;
    assert(n->val >= 0); // expect: violated
    return 1 + walk(n->next);
}

void *writer(void *arg) {
    head->val = -1;
    head->val = 7;
    return 0;
}

void *reader(void *arg) {
    pthread_mutex_lock(&m);
    walk(head);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
