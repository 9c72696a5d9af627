// Filter lock for 4 threads, as benchmarks/finite/gen_filter.py writes it.
#include <pthread.h>
#include <assert.h>

int level[4], victim[4], inside = 0;

void *t0(void *arg) {
    for (int l = 1; l < 4; l++) {
        level[0] = l;
        victim[l] = 0;
        while (victim[l] == 0 && (level[1] >= l || level[2] >= l || level[3] >= l)) {}
    }
    inside = inside + 1;
    assert(inside == 1); // expect: holds
    inside = inside - 1;
    level[0] = 0;
    return 0;
}

void *t1(void *arg) {
    for (int l = 1; l < 4; l++) {
        level[1] = l;
        victim[l] = 1;
        while (victim[l] == 1 && (level[0] >= l || level[2] >= l || level[3] >= l)) {}
    }
    inside = inside + 1;
    assert(inside == 1); // expect: holds
    inside = inside - 1;
    level[1] = 0;
    return 0;
}

void *t2(void *arg) {
    for (int l = 1; l < 4; l++) {
        level[2] = l;
        victim[l] = 2;
        while (victim[l] == 2 && (level[0] >= l || level[1] >= l || level[3] >= l)) {}
    }
    inside = inside + 1;
    assert(inside == 1); // expect: holds
    inside = inside - 1;
    level[2] = 0;
    return 0;
}

void *t3(void *arg) {
    for (int l = 1; l < 4; l++) {
        level[3] = l;
        victim[l] = 3;
        while (victim[l] == 3 && (level[0] >= l || level[1] >= l || level[2] >= l)) {}
    }
    inside = inside + 1;
    assert(inside == 1); // expect: holds
    inside = inside - 1;
    level[3] = 0;
    return 0;
}

int main(void) {
    pthread_t t[4];
    pthread_create(&t[0], 0, t0, 0);
    pthread_create(&t[1], 0, t1, 0);
    pthread_create(&t[2], 0, t2, 0);
    pthread_create(&t[3], 0, t3, 0);
    return 0;
}
// PARAM: --search-time 2
