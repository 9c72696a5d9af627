struct s { int a; int b[4]; };
struct s v;
int x, y;
int main(void) {
    int *p = &x;
    *p = 3;
    y = 4;
    v.a = 1;
    v.b[2] = 5;
    return 0;
}
