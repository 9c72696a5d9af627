/* The failure is reachable only through signed overflow (undefined behaviour): a + 1 < a.
 * The bounded search's first candidate overflows and does not replay; with overflow excluded
 * nothing fails, so the verdict is bounded-safe (never safe: the claim leaves undefined
 * behaviour out). With -DTWIN, a = 5 also fails without overflow: violated.
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int a = __VERIFIER_nondet_int();
    int b = a + 1;
#ifdef TWIN
    if (b < a || a == 5)
        reach_error();
#else
    if (b < a)
        reach_error(); // expect: bounded-safe
#endif
    return 0;
}
