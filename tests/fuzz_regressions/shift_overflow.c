int a[1 << 40];
int main() { a[0] = 1 << 63; return (int)(-2147483647 - 1) / -1; }
