#include <string.h>
#include <assert.h>
struct dev { char name[8]; int id; };
int main(void) {
  struct dev d = { "abc", 1 };
  assert(strlen(d.name) == 2); // expect: violated
  return 0;
}
