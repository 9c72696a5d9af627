int main(void) {
    int x;
    (x + 1) = 2;
    return 0;
}
