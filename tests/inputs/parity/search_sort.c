// qsort, bsearch, lsearch/lfind, hsearch and tsearch/tfind/tdelete/twalk.
#define _GNU_SOURCE
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmpi(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static int cmps(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static void act(const void *n, VISIT v, int depth) {
  if (v == postorder || v == leaf)
    printf(" %d@%d", **(int *const *)n, depth);
}
int main(void) {
  const char *words[] = {"pear", "apple", "fig", "banana", "kiwi", "apple", "date"};
  char *w[7];
  for (int i = 0; i < 7; ++i)
    w[i] = (char *)words[i];
  qsort(w, 7, sizeof w[0], cmps);
  for (int i = 0; i < 7; ++i)
    printf("%s ", w[i]);
  printf("\n");
  int arr[20];
  size_t n = 0;
  int keys[] = {5, 3, 5, 9, 1, 3, 7};
  for (int i = 0; i < 7; ++i)
    lsearch(&keys[i], arr, &n, sizeof(int), cmpi);
  printf("lsearch n=%zu:", n);
  for (size_t i = 0; i < n; ++i)
    printf(" %d", arr[i]);
  printf("\n");
  int k = 9;
  int *f = lfind(&k, arr, &n, sizeof(int), cmpi);
  printf("lfind 9 at %ld\n", f ? (long)(f - arr) : -1L);
  hcreate(16);
  for (int i = 0; i < 7; ++i) {
    ENTRY e = {(char *)words[i], (void *)(long)i};
    ENTRY *r = hsearch(e, ENTER);
    printf("%s->%ld ", words[i], (long)r->data);
  }
  ENTRY q = {"fig", 0};
  ENTRY *r = hsearch(q, FIND);
  printf("\nfind fig=%ld ", r ? (long)r->data : -1L);
  q.key = "none";
  printf("none=%p\n", (void *)hsearch(q, FIND));
  hdestroy();
  void *root = NULL;
  int vals[] = {50, 30, 70, 20, 40, 60, 80, 30};
  for (int i = 0; i < 8; ++i) {
    int **p = tsearch(&vals[i], &root, cmpi);
    printf("%d ", **p);
  }
  printf("\ntwalk:");
  twalk(root, act);
  printf("\n");
  int d = 30;
  tdelete(&d, &root, cmpi);
  d = 30;
  printf("tfind 30 after delete=%p\n", (void *)tfind(&d, &root, cmpi));
  printf("twalk:");
  twalk(root, act);
  printf("\n");
  int sorted[] = {1, 3, 5, 7, 9, 11};
  for (int x = 0; x <= 12; x += 3) {
    int *b = bsearch(&x, sorted, 6, sizeof(int), cmpi);
    printf("bsearch %d=%ld ", x, b ? (long)(b - sorted) : -1L);
  }
  printf("\n");

  return 0;
}
