// An address converted to an integer, stored, and handed to a function without a definition,
// which may keep it and write through it on a later call: `s` may change under `poke`, so the
// second assertion can fail. It was proved safe: the havoc followed only pointer arguments.
extern void __VERIFIER_assert(int cond);
void keep(long a);
void poke(void);

static int s;
static int t;

int main(void) {
    long a = (long)&s;
    keep(a);
    s = 0;
    t = 0;
    poke();
    __VERIFIER_assert(t <= 1); // expect: holds
    __VERIFIER_assert(s == 0); // expect: fails
    return 0;
}
