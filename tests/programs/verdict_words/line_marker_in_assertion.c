/* An assertion whose argument spans ten blank lines: the preprocessor writes a line marker
 * inside it, which must not reach the assertion's text in reports. x is 1, so it fails. */
extern void __VERIFIER_assert(int);
int x;
int main(void) {
    x = 1;
    __VERIFIER_assert(x == // expect: violated









           0);
    return 0;
}
