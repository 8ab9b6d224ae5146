// Memory above 4 GiB in a 64-bit process, after code has run below it: the
// executor's translated code takes only an address's low 32 bits until
// something is mapped that high, then drops every translation
// (emulator/direct_memory.cpp). So the same two functions run on the stack,
// then on the second of two 1 GiB mappings (more than fits below 4 GiB
// there) in the main thread and in a thread that ran them before the
// mapping existed; what they write must land there, not at its low 32
// bits. A 32-bit process runs the same steps on 64 MiB mappings.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

__attribute__((noinline)) static void fill(long *P, int N, long V) {
  for (int I = 0; I < N; ++I)
    P[I] = V + I;
}
__attribute__((noinline)) static long sum(const long *P, int N) {
  long S = 0;
  for (int I = 0; I < N; ++I)
    S += P[I];
  return S;
}

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Changed = PTHREAD_COND_INITIALIZER;
static int LowDone;
static long *High;

static void *worker(void *Arg) {
  (void)Arg;
  long Low[256];
  fill(Low, 256, 5);
  long S = sum(Low, 256);
  pthread_mutex_lock(&Lock);
  LowDone = 1;
  pthread_cond_broadcast(&Changed);
  while (!High)
    pthread_cond_wait(&Changed, &Lock);
  pthread_mutex_unlock(&Lock);
  fill(High + 512, 256, 9);
  return (void *)(S + sum(High + 512, 256));
}

int main(void) {
  char *Heap = malloc(1 << 16);
  memset(Heap, 7, 1 << 16);
  long Low[256];
  fill(Low, 256, 1);
  printf("low: %ld\n", sum(Low, 256));

  pthread_t T;
  if (pthread_create(&T, NULL, worker, NULL))
    return puts("pthread_create failed"), 1;
  pthread_mutex_lock(&Lock);
  while (!LowDone)
    pthread_cond_wait(&Changed, &Lock);
  pthread_mutex_unlock(&Lock);

  size_t Size = sizeof(void *) == 8 ? (size_t)1 << 30 : (size_t)64 << 20;
  char *First = mmap(NULL, Size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *Big = mmap(NULL, Size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (First == MAP_FAILED || Big == MAP_FAILED)
    return puts("mmap failed"), 1;
  long *P = (long *)Big;
  if (mprotect(P, 1 << 16, PROT_READ | PROT_WRITE))
    return puts("mprotect failed"), 1;
  fill(P, 256, 3);
  printf("high: %ld\n", sum(P, 256));

  pthread_mutex_lock(&Lock);
  High = P;
  pthread_cond_broadcast(&Changed);
  pthread_mutex_unlock(&Lock);
  void *R;
  pthread_join(T, &R);
  printf("worker: %ld, high again: %ld\n", (long)R, sum(P, 256));

  int Changes = 0;
  for (int I = 0; I < 1 << 16; ++I)
    Changes += Heap[I] != 7;
  printf("heap bytes changed: %d\n", Changes);
  printf("munmap: %d %d\n", munmap(Big, Size), munmap(First, Size));
  free(Heap);
  return 0;
}
