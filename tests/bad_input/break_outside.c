int main(void) {
    break;
    return 0;
}
