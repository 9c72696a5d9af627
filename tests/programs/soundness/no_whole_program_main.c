// Under --no-whole-program every function but `init` is a thread, `main` included. Its
// assertions were reported "safe: `main` is never called": the root that runs `init` was
// itself named `main`, and took the place of the thread.
int g;

void init(void) { g = 0; }

int main(void) {
    g = 1;
    __VERIFIER_assert(g <= 2); // expect: holds
    __VERIFIER_assert(g == 1); // expect: violated
    return 0;
}

void other(void) { g = 2; }
// PARAM: --no-whole-program
