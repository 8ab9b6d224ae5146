#include "inventory.h"

#include <stdlib.h>
#include <string.h>

#define BUCKETS 31

static struct item *buckets[BUCKETS];
int inventory_generation;
int inventory_scratch; /* a common symbol under -fcommon */

unsigned hash_name(const char *s) {
  unsigned h = 2166136261u;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

struct item *inventory_add(const char *name, int quantity, double price) {
  struct item *it = calloc(1, sizeof *it);
  if (!it)
    return 0;
  strncpy(it->name, name, sizeof it->name - 1);
  it->quantity = quantity;
  it->price = price;
  unsigned b = hash_name(name) % BUCKETS;
  it->next = buckets[b];
  buckets[b] = it;
  ++inventory_generation;
  return it;
}

struct item *inventory_find(const char *name) {
  for (struct item *it = buckets[hash_name(name) % BUCKETS]; it; it = it->next)
    if (strcmp(it->name, name) == 0)
      return it;
  return 0;
}

size_t inventory_collect(struct item **out, size_t max) {
  size_t n = 0;
  for (int b = 0; b < BUCKETS; ++b)
    for (struct item *it = buckets[b]; it && n < max; it = it->next)
      out[n++] = it;
  return n;
}

double inventory_value(void) {
  double total = 0;
  for (int b = 0; b < BUCKETS; ++b)
    for (struct item *it = buckets[b]; it; it = it->next)
      total += it->quantity * it->price;
  return total;
}
