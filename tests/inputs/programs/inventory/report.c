#include "inventory.h"

#include <stdio.h>

const char *const category_names[] = {"tools", "parts", "supplies"};

/* Overridable by a strong definition elsewhere. */
__attribute__((weak)) const char *report_title(void) { return "Inventory report"; }

int format_item(char *buf, size_t size, const struct item *it) {
  return snprintf(buf, size, "%-12s %5d @ %8.2f", it->name, it->quantity, it->price);
}
