/* A small multi-file C program: an inventory with a hash table, sorting
   through a callback, string formatting, globals, a constructor, weak and
   common symbols, and function-pointer tables -- the shapes a linker meets. */
#ifndef INVENTORY_H
#define INVENTORY_H

#include <stddef.h>

struct item {
  char name[24];
  int quantity;
  double price;
  struct item *next;
};

extern int inventory_generation;
extern const char *const category_names[];

struct item *inventory_add(const char *name, int quantity, double price);
struct item *inventory_find(const char *name);
size_t inventory_collect(struct item **out, size_t max);
void inventory_sort(struct item **items, size_t n, int (*cmp)(const void *, const void *));
int by_quantity(const void *a, const void *b);
int by_name(const void *a, const void *b);
double inventory_value(void);
int format_item(char *buf, size_t size, const struct item *it);
unsigned hash_name(const char *s);
const char *report_title(void);

#endif
