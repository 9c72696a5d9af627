/* A minimal <stdlib.h> for fuzzing. */
#ifndef FUZZ_STDLIB_H
#define FUZZ_STDLIB_H
typedef unsigned long size_t;
#define NULL ((void *)0)
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void abort(void);
void exit(int);
int rand(void);
#endif
