// A small freestanding program (no libc) split over three files, for
// formats and targets without a C runtime here (MachO, COFF): calls between
// files, function pointers, globals, constant tables, strings, a switch.
#pragma once

struct shape {
  const char *name;
  int kind;
  int a, b;
};

extern struct shape shapes[];
extern int shape_count;
extern long checksum;

int area(const struct shape *s);
int perimeter(const struct shape *s);
int str_len(const char *s);
int apply(int (*fn)(const struct shape *), int index);
long mix(long h, long v);
