/* A multi-character constant is GCC's `int` of all its chars, each shifted in ('ab' is
 * 0x6162), and a non-ASCII character stands for its UTF-8 bytes. Only the first character was
 * read ('ab' was 'a'): the first assertion was violated, the second safe. */
#include <assert.h>
int main(void) {
    assert('ab' == 0x6162 && '\x41\x42' == 0x4142 && '\101' == 65 && '\xff' == -1 && '\0' == 0); // expect: safe
    assert('ab' == 'a'); // expect: violated
    return 0;
}
