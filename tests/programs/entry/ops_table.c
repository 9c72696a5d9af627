// Entry points reached only through a `file_operations`-style table: both are static and no
// function calls them, but their addresses are stored, so both run as threads. `reset` is
// external and uncalled: an entry point too, unless --entry leaves it out.
struct file_operations {
    int (*open)(void);
    int (*release)(void);
};

int opened;
int resets;

void init(void) { opened = 0; resets = 0; }

static int my_open(void) {
    opened = 1;
    return 0;
}

static int my_release(void) {
    __VERIFIER_assert(opened == 0); // expect: violated (fails once `my_open` has run)
    return 0;
}

void reset(void) {
    resets = resets + 1;
    __VERIFIER_assert(resets <= 1); // expect: violated (fails with two concurrent resets)
}

static const struct file_operations fops = {
    .open = my_open,
    .release = my_release,
};
// PARAM: --no-whole-program --parameterized
