// One thread, no loop: the exploration at bound 1 is complete, but Z3 is slow on `&` of a
// value read from memory (the encoding converts between integers and bit-vectors), so a short
// search budget runs out before the query is answered.
extern void __VERIFIER_error(void);
int v = 5;
int main(void) {
    v = (v << 3) & 60;
    if (v == 40)
        __VERIFIER_error(); // expect: violated
    return 0;
}
