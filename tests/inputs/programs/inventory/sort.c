#include "inventory.h"

#include <stdlib.h>
#include <string.h>

int by_quantity(const void *a, const void *b) {
  const struct item *x = *(struct item *const *)a, *y = *(struct item *const *)b;
  return (x->quantity > y->quantity) - (x->quantity < y->quantity);
}

int by_name(const void *a, const void *b) {
  return strcmp((*(struct item *const *)a)->name, (*(struct item *const *)b)->name);
}

void inventory_sort(struct item **items, size_t n, int (*cmp)(const void *, const void *)) {
  qsort(items, n, sizeof *items, cmp);
}
