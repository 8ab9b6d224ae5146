#include "inventory.h"

#include <stdio.h>
#include <string.h>

static int constructed;

__attribute__((constructor)) static void setup(void) { constructed = 42; }

static int (*const comparators[])(const void *, const void *) = {by_quantity, by_name};

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int quantity;
    double price;
  } stock[] = {{"hammer", 12, 9.5}, {"nails", 500, 0.02}, {"saw", 3, 24.0}, {"glue", 40, 3.25}, {"tape", 25, 1.75}};
  for (unsigned i = 0; i < sizeof stock / sizeof stock[0]; ++i)
    inventory_add(stock[i].name, stock[i].quantity, stock[i].price);

  printf("%s (constructor ran: %d, generation %d)\n", report_title(), constructed, inventory_generation);
  struct item *items[16];
  size_t n = inventory_collect(items, 16);
  int order = argc > 1 && strcmp(argv[1], "name") == 0;
  inventory_sort(items, n, comparators[order]);
  char line[64];
  for (size_t i = 0; i < n; ++i) {
    format_item(line, sizeof line, items[i]);
    printf("%s [%s]\n", line, category_names[i % 3]);
  }
  printf("total value: %.2f\n", inventory_value());
  struct item *saw = inventory_find("saw");
  return saw ? saw->quantity : 1;
}
