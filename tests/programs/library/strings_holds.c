#include <string.h>
#include <assert.h>
struct dev { char name[8]; int id; };
int main(void) {
  struct dev empty = { "" };
  assert(strlen(empty.name) == 0); // expect: safe
  struct dev d = { "abc", 1 };
  assert(strlen(d.name) == 3); // expect: safe
  const char *s = "hello";
  assert(strlen(s) == 5); // expect: safe
  assert(s[1] == 'e'); // expect: safe
  assert(strcmp(d.name, "abc") == 0); // expect: safe
  assert(strcmp(d.name, "abd") < 0); // expect: safe
  assert(strncmp("abcx", "abcy", 3) == 0); // expect: safe
  char buf[16];
  strcpy(buf, "xy");
  strcat(buf, "z");
  assert(strlen(buf) == 3 && buf[2] == 'z'); // expect: safe
  assert(strchr(buf, 'y') == buf + 1); // expect: safe
  assert(strchr(buf, 'q') == 0); // expect: safe
  char cp[8];
  memcpy(cp, d.name, sizeof cp);
  assert(cp[2] == 'c' && memcmp(cp, d.name, 4) == 0); // expect: safe
  return 0;
}
// PARAM: --bound 1 --search-time 60
