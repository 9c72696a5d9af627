/* A minimal <stdio.h> for fuzzing. */
#ifndef FUZZ_STDIO_H
#define FUZZ_STDIO_H
int printf(const char *, ...);
#endif
