// A function declared here but defined in no file given lives in another translation unit,
// which may write every global with external linkage by name: `g` may be anything after the
// call (the second assertion can fail), while `s`, static, stays 0 (the first holds). Both
// were proved safe when undefined functions were assumed to write only through addresses.
extern void __VERIFIER_assert(int cond);
void update(void);

int g;
static int s;

int main(void) {
    g = 0;
    update();
    __VERIFIER_assert(s == 0); // expect: safe
    __VERIFIER_assert(g == 0); // expect: unknown
    return 0;
}
