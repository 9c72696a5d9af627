/* Found by the fuzzer: a struct with a member of its own type by value (`struct node *n, xt;`), handed to an undefined function. Havocking it recursed until the stack overflowed (exit 134); now a located error. */
struct node { int v; struct node *n, xt; };
void walk(struct node *n);
struct node second = { 2, 0 };
struct node first = { 1, &second };
int main(void) { walk(&first); return second.v; }
