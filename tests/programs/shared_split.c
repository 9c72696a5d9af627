int g, h;
int main(void) {
    int l = 1;
    g = h + l;
    g++;
    if (g > h) l = 2;
    return l;
}
