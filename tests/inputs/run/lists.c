// A malloc'd linked list: build, reverse, print, free; calloc and realloc.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node { int value; struct node *next; };

int main(void) {
  struct node *head = NULL;
  for (int i = 1; i <= 20; ++i) {
    struct node *n = malloc(sizeof *n);
    n->value = i * i;
    n->next = head;
    head = n;
  }
  struct node *rev = NULL;
  while (head) {
    struct node *next = head->next;
    head->next = rev;
    rev = head;
    head = next;
  }
  long sum = 0;
  for (struct node *n = rev; n; n = n->next) {
    printf("%d ", n->value);
    sum += n->value;
  }
  printf("\nsum %ld\n", sum);
  while (rev) {
    struct node *next = rev->next;
    free(rev);
    rev = next;
  }
  int *zeros = calloc(1000, sizeof(int));
  char *buf = malloc(4);
  strcpy(buf, "abc");
  buf = realloc(buf, 100000);
  memset(buf + 3, 'x', 5);
  buf[8] = 0;
  printf("calloc %d, realloc'd \"%s\"\n", zeros[999], buf);
  free(buf);
  free(zeros);
  return (int)(sum % 100);
}
