extern int *external_buffer(void);
extern int __VERIFIER_nondet_int(void);
struct s { int a; int b[4]; };
struct s v;
int x, y;
int main(void) {
    int *p = &x;
    *p = 3;
    y = 4;
    v.a = 1;
    v.b[2] = 5;
    int *s = __VERIFIER_nondet_int() ? &x : &y;
    *s = 9;
    int *r = external_buffer();
    *r = 7;
    return 0;
}
