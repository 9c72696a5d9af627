/* A minimal <string.h> for fuzzing. */
#ifndef FUZZ_STRING_H
#define FUZZ_STRING_H
typedef unsigned long size_t;
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
size_t strlen(const char *);
int strcmp(const char *, const char *);
#endif
