int main() { return 0; }
/* never closed
