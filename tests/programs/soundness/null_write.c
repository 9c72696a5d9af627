/* A write through NULL crashes the program, so an execution that goes on past `*p = 1` wrote
 * `g`: the first assertion holds. Memory that takes the write at NULL would let it fail. The
 * second assertion fails after the write to `g`. */
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int g;
int main(void) {
    int *p = 0;
    if (__VERIFIER_nondet_int())
        p = &g;
    *p = 1;
    __VERIFIER_assert(g == 1); // expect: holds
    __VERIFIER_assert(g == 0); // expect: violated
    return 0;
}
