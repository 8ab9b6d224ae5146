// Threads gone wrong, for run_threads_test.cpp: argv[1] picks the case.
//  d: two threads each hold the mutex the other wants (a deadlock)
//  c: a thread writes through a null pointer
//  s: a thread spins forever while main joins it (the limits end it)
//  m: a thread allocates until the memory cap stops it
//  k: a thread is killed by SIGABRT (abort())
//  z: main sleeps past the time limit while the other thread waits for a signal
//  w: main waits in sigwaitinfo while a thread spins (the limits end it)
//  r: robust mutexes whose owner exits holding them (qemu-user has no robust
//     lists, so this is not a parity program; the answers are Linux's)
//  t: thousands of threads created and joined, some at once
//  u: clone with flags other than a thread's
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER, B = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t Both;

static void *lockBA(void *Arg) {
  pthread_mutex_lock(&B);
  pthread_barrier_wait(&Both);
  pthread_mutex_lock(&A);
  return Arg;
}

static void *crash(void *Arg) {
  *(volatile int *)Arg = 1;
  return NULL;
}

static void *spin(void *Arg) {
  for (volatile unsigned long I = 0;; ++I)
    ;
  return Arg;
}

static char *volatile Last; // keeps the compiler from dropping the allocations
static void *allocate(void *Arg) {
  for (;;) {
    char *P = malloc(1 << 20);
    if (!P)
      return Arg;
    for (int I = 0; I < (1 << 20); I += 4096)
      P[I] = 1;
    Last = P;
  }
}

static void *abortIt(void *Arg) {
  abort();
  return Arg;
}

static void *waitForSignal(void *Arg) {
  pause();
  return Arg;
}

static pthread_mutex_t Robust;
static sem_t Locked;
static void *lockAndLeave(void *Arg) {
  pthread_mutex_lock(&Robust);
  sem_post(&Locked);
  struct timespec Hold = {0, 20000000};
  nanosleep(&Hold, NULL); // the main thread waits for the mutex meanwhile
  return Arg;
}

static void *add(void *Arg) { return (void *)((long)Arg + 1); }

int main(int argc, char **argv) {
  pthread_t T;
  switch (argc > 1 ? argv[1][0] : 0) {
  case 'd':
    pthread_barrier_init(&Both, NULL, 2);
    pthread_create(&T, NULL, lockBA, NULL);
    pthread_mutex_lock(&A);
    pthread_barrier_wait(&Both);
    pthread_mutex_lock(&B);
    puts("not reached");
    return 0;
  case 'c':
    pthread_create(&T, NULL, crash, NULL);
    pthread_join(T, NULL);
    return 0;
  case 's':
    pthread_create(&T, NULL, spin, NULL);
    pthread_join(T, NULL);
    return 0;
  case 'm':
    pthread_create(&T, NULL, allocate, NULL);
    pthread_join(T, NULL);
    puts("malloc failed in the thread");
    return 0;
  case 'k':
    pthread_create(&T, NULL, abortIt, NULL);
    pthread_join(T, NULL);
    return 0;
  case 'z':
    pthread_create(&T, NULL, waitForSignal, NULL);
    sleep(100);
    return 0;
  case 'w': {
    sigset_t Set;
    sigemptyset(&Set);
    sigaddset(&Set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &Set, NULL);
    pthread_create(&T, NULL, spin, NULL);
    sigwaitinfo(&Set, NULL);
    return 0;
  }
  case 'r': {
    pthread_mutexattr_t Attr;
    pthread_mutexattr_init(&Attr);
    pthread_mutexattr_setrobust(&Attr, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&Robust, &Attr);
    sem_init(&Locked, 0, 0);
    for (int I = 0; I < 2; ++I) {
      pthread_create(&T, NULL, lockAndLeave, NULL);
      sem_wait(&Locked);
      if (I == 1)
        pthread_join(T, NULL); // the owner is gone before the lock
      int E = pthread_mutex_lock(&Robust);
      printf("%s: %s", I ? "locked after the owner exited" : "waiting when the owner exited", strerror(E));
      if (E == EOWNERDEAD)
        printf(", made consistent: %s", strerror(pthread_mutex_consistent(&Robust)));
      printf("\n");
      pthread_mutex_unlock(&Robust);
      if (I == 0)
        pthread_join(T, NULL);
    }
    return 0;
  }
  case 't': {
    long Sum = 0;
    enum { Batch = 8 };
    pthread_t Ts[Batch];
    for (long I = 0; I < 3000; I += Batch) {
      for (long J = 0; J < Batch; ++J)
        if (pthread_create(&Ts[J], NULL, add, (void *)(I + J)))
          return puts("pthread_create failed"), 1;
      for (long J = 0; J < Batch; ++J) {
        void *R;
        pthread_join(Ts[J], &R);
        Sum += (long)R;
      }
    }
    printf("3000 threads joined, sum %ld\n", Sum);
    return 0;
  }
  case 'u': {
    // A new process sharing nothing (fork's flags), and a thread that
    // also asks for a new mount namespace.
    long Fork = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
    int ForkErr = errno;
    long Ns = syscall(SYS_clone, CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_NEWNS, 0, 0, 0, 0);
    int NsErr = errno;
    long NoVm = syscall(SYS_clone, CLONE_SIGHAND | CLONE_THREAD, 0, 0, 0, 0);
    printf("fork-like clone: %ld errno %d; namespace: %ld errno %d; no CLONE_VM: %ld errno %d\n", Fork, ForkErr, Ns,
           NsErr, NoVm, errno);
    return 0;
  }
  }
  return 2;
}
