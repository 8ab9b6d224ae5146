/* A second thread for tests/debug/gdb_test.py: gdb stops in it and lists
   both threads. */
#include <pthread.h>
#include <stdio.h>

int shared = 0;

void *worker(void *arg) {
  shared = *(int *)arg; /* the worker's line */
  return 0;
}

int main(void) {
  pthread_t t;
  int v = 42;
  pthread_create(&t, 0, worker, &v);
  pthread_join(t, 0);
  printf("shared %d\n", shared);
  return 0;
}
