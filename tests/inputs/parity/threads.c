// POSIX threads: create and join, mutexes, condition variables, a
// producer/consumer, pthread_once, thread-local storage, a spin-wait on an
// atomic, detached threads, pthread_exit, cancellation, signals to one
// thread. Only the main thread prints, after the joins that order it, so
// the output is the same however the threads interleave.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { Workers = 4 };

static void check(int Err, const char *What) {
  if (Err) {
    printf("%s: %s\n", What, strerror(Err));
    exit(1);
  }
}

// ---- create / join, return values ----
static void *sumTo(void *Arg) {
  uintptr_t N = (uintptr_t)Arg, S = 0;
  for (uintptr_t I = 1; I <= N; ++I)
    S += I;
  return (void *)S;
}

// ---- a mutex ----
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static long Counter;
static void *increment(void *Arg) {
  for (int I = 0; I < 20000; ++I) {
    pthread_mutex_lock(&Lock);
    long V = Counter;
    if (I % 1000 == 0)
      sched_yield(); // another thread finds the lock taken
    Counter = V + 1;
    pthread_mutex_unlock(&Lock);
  }
  return Arg;
}

// ---- producer / consumer over a bounded buffer ----
enum { Slots = 4, Items = 500 };
static int Buffer[Slots], Head, Count;
static pthread_mutex_t BufLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t NotFull = PTHREAD_COND_INITIALIZER, NotEmpty = PTHREAD_COND_INITIALIZER;
static void *produce(void *Arg) {
  for (int I = 1; I <= Items; ++I) {
    pthread_mutex_lock(&BufLock);
    while (Count == Slots)
      pthread_cond_wait(&NotFull, &BufLock);
    Buffer[(Head + Count++) % Slots] = I;
    pthread_cond_signal(&NotEmpty);
    pthread_mutex_unlock(&BufLock);
  }
  return Arg;
}
static void *consume(void *Arg) {
  long *Sum = Arg;
  for (int I = 0; I < Items / 2; ++I) {
    pthread_mutex_lock(&BufLock);
    while (Count == 0)
      pthread_cond_wait(&NotEmpty, &BufLock);
    *Sum += Buffer[Head];
    Head = (Head + 1) % Slots, --Count;
    pthread_cond_signal(&NotFull);
    pthread_mutex_unlock(&BufLock);
  }
  return NULL;
}

// ---- pthread_once, a barrier ----
static pthread_once_t Once = PTHREAD_ONCE_INIT;
static atomic_int OnceRuns;
static pthread_barrier_t Barrier;
static void initOnce(void) { atomic_fetch_add(&OnceRuns, 1); }
static void *callOnce(void *Arg) {
  pthread_barrier_wait(&Barrier);
  pthread_once(&Once, initOnce);
  return Arg;
}

// ---- thread-local storage ----
static __thread int GnuTls = 7;
static _Thread_local long C11Tls[3] = {1, 2, 3};
static void *useTls(void *Arg) {
  int Id = (int)(intptr_t)Arg;
  int Before = GnuTls * 1000 + (int)(C11Tls[0] + C11Tls[1] + C11Tls[2]);
  GnuTls = Id;
  C11Tls[2] = Id * 100;
  pthread_barrier_wait(&Barrier); // every thread has written its own copy
  return (void *)(intptr_t)(Before * 100000 + GnuTls * 1000 + C11Tls[2] / 100);
}

// ---- many threads in malloc at once: glibc gives each its own arena ----
enum { Allocators = 12 };
static void *allocate(void *Arg) {
  pthread_barrier_wait(&Barrier);
  char *P = malloc(1000);
  memset(P, (int)(intptr_t)Arg, 1000);
  pthread_barrier_wait(&Barrier); // all of them hold their block
  intptr_t Sum = P[0] + P[999];
  free(P);
  return (void *)Sum;
}

// ---- a spin-wait on an atomic ----
static atomic_int Flag;
static int Payload;
static void *publish(void *Arg) {
  Payload = 42;
  atomic_store_explicit(&Flag, 1, memory_order_release);
  return Arg;
}

// ---- detached threads ----
static sem_t Done;
static atomic_int DetachedSum;
static void *detached(void *Arg) {
  atomic_fetch_add(&DetachedSum, (int)(intptr_t)Arg);
  sem_post(&Done);
  return NULL;
}

// ---- pthread_exit from deep inside ----
static void leave(int Depth) {
  if (Depth == 0)
    pthread_exit((void *)(intptr_t)1234);
  leave(Depth - 1);
}
static void *exitEarly(void *Arg) {
  leave(5);
  return Arg;
}

// ---- cancellation ----
static atomic_int CleanedUp;
static void cleanup(void *Arg) { // the cancelled wait took the mutex back
  atomic_store(&CleanedUp, (int)(intptr_t)Arg);
  pthread_mutex_unlock(&BufLock);
}
static void *waitForever(void *Arg) {
  pthread_cleanup_push(cleanup, (void *)77);
  pthread_mutex_lock(&BufLock);
  sem_post(&Done);
  for (;;)
    pthread_cond_wait(&NotEmpty, &BufLock); // a cancellation point
  pthread_cleanup_pop(0);
  return Arg;
}
static void *sleepForever(void *Arg) {
  sem_post(&Done);
  for (;;)
    sleep(100);
  return Arg;
}

// ---- signals to one thread ----
static pthread_t Target;
static atomic_int HandledBy; // 1: the target thread, 2: another
static void onUsr(int Sig) {
  (void)Sig;
  atomic_store(&HandledBy, pthread_equal(pthread_self(), Target) ? 1 : 2);
}
static void *awaitSignal(void *Arg) {
  while (!atomic_load(&HandledBy))
    sched_yield();
  return Arg;
}

// ---- a timed wait that times out, a sleep a signal ends ----
static void *timedWait(void *Arg) {
  struct timespec T;
  clock_gettime(CLOCK_REALTIME, &T);
  T.tv_nsec += 20000000;
  if (T.tv_nsec >= 1000000000)
    T.tv_sec++, T.tv_nsec -= 1000000000;
  pthread_mutex_lock(&BufLock);
  int R = pthread_cond_timedwait(&NotEmpty, &BufLock, &T);
  pthread_mutex_unlock(&BufLock);
  return (void *)(intptr_t)R;
}
static void *sleepLong(void *Arg) {
  struct timespec Request = {30, 0}, Left = {99, 0};
  sem_post(&Done);
  int R = nanosleep(&Request, &Left);
  return (void *)(intptr_t)(R == -1 && errno == EINTR && Left.tv_sec == 29); // about 29.98 s left
}

// ---- a thread that takes signals with sigwaitinfo ----
static int Codes[3]; // si_code of SIGUSR1, SIGUSR2; SIGALRM's sigtimedwait result
static void *takeSignals(void *Arg) {
  sigset_t *Set = Arg;
  for (int I = 0; I < 2; ++I) {
    siginfo_t Info;
    int Sig = sigwaitinfo(Set, &Info);
    Codes[Sig == SIGUSR1 ? 0 : 1] = Info.si_code;
  }
  sigset_t Alarm;
  sigemptyset(&Alarm);
  sigaddset(&Alarm, SIGALRM);
  struct timespec Short = {0, 10000000};
  Codes[2] = sigtimedwait(&Alarm, NULL, &Short) == -1 ? errno : 0;
  return NULL;
}

// ---- the main thread leaves first ----
static pthread_t Main;
static void *outlive(void *Arg) {
  pthread_join(Main, NULL);
  printf("the main thread is gone; the last thread ends the process\n");
  return Arg;
}

int main(void) {
  pthread_t T[Workers];
  void *R;

  for (int I = 0; I < Workers; ++I)
    check(pthread_create(&T[I], NULL, sumTo, (void *)(uintptr_t)(100 * (I + 1))), "pthread_create");
  for (int I = 0; I < Workers; ++I) {
    check(pthread_join(T[I], &R), "pthread_join");
    printf("sum to %d: %lu\n", 100 * (I + 1), (unsigned long)(uintptr_t)R);
  }

  for (int I = 0; I < Workers; ++I)
    check(pthread_create(&T[I], NULL, increment, NULL), "pthread_create");
  for (int I = 0; I < Workers; ++I)
    pthread_join(T[I], NULL);
  printf("counter: %ld\n", Counter);

  long Sums[2] = {0, 0};
  pthread_t P, Cons[2];
  check(pthread_create(&Cons[0], NULL, consume, &Sums[0]), "consumer");
  check(pthread_create(&Cons[1], NULL, consume, &Sums[1]), "consumer");
  check(pthread_create(&P, NULL, produce, NULL), "producer");
  pthread_join(P, NULL);
  pthread_join(Cons[0], NULL);
  pthread_join(Cons[1], NULL);
  printf("consumed: %ld (buffer holds %d)\n", Sums[0] + Sums[1], Count);

  pthread_barrier_init(&Barrier, NULL, Workers);
  for (int I = 0; I < Workers; ++I)
    pthread_create(&T[I], NULL, callOnce, NULL);
  for (int I = 0; I < Workers; ++I)
    pthread_join(T[I], NULL);
  printf("once: %d run(s)\n", atomic_load(&OnceRuns));

  for (int I = 0; I < Workers; ++I)
    pthread_create(&T[I], NULL, useTls, (void *)(intptr_t)(I + 1));
  for (int I = 0; I < Workers; ++I) {
    pthread_join(T[I], &R);
    printf("thread %d tls: %ld\n", I + 1, (long)(intptr_t)R);
  }
  printf("main tls: %d %ld\n", GnuTls, C11Tls[2]);
  pthread_barrier_destroy(&Barrier);

  pthread_t Alloc[Allocators];
  pthread_barrier_init(&Barrier, NULL, Allocators);
  for (int I = 0; I < Allocators; ++I)
    check(pthread_create(&Alloc[I], NULL, allocate, (void *)(intptr_t)(I + 1)), "pthread_create");
  long Total = 0;
  for (int I = 0; I < Allocators; ++I) {
    pthread_join(Alloc[I], &R);
    Total += (long)(intptr_t)R;
  }
  printf("%d threads allocated at once: %ld\n", Allocators, Total);
  pthread_barrier_destroy(&Barrier);

  pthread_create(&T[0], NULL, publish, NULL);
  while (!atomic_load_explicit(&Flag, memory_order_acquire))
    ; // no system call: only the time slice lets the other thread run
  printf("spin-wait saw %d\n", Payload);
  pthread_join(T[0], NULL);

  sem_init(&Done, 0, 0);
  pthread_attr_t Detached;
  pthread_attr_init(&Detached);
  pthread_attr_setdetachstate(&Detached, PTHREAD_CREATE_DETACHED);
  for (int I = 1; I <= 10; ++I)
    check(pthread_create(&T[0], &Detached, detached, (void *)(intptr_t)I), "detached");
  for (int I = 0; I < 10; ++I)
    sem_wait(&Done);
  printf("detached threads summed %d\n", atomic_load(&DetachedSum));

  pthread_create(&T[0], NULL, exitEarly, NULL);
  pthread_join(T[0], &R);
  printf("pthread_exit value: %ld\n", (long)(intptr_t)R);

  pthread_create(&T[0], NULL, waitForever, NULL);
  sem_wait(&Done);
  pthread_mutex_lock(&BufLock); // the thread waits on the condition variable now
  pthread_mutex_unlock(&BufLock);
  check(pthread_cancel(T[0]), "pthread_cancel");
  pthread_join(T[0], &R);
  printf("cancelled in pthread_cond_wait: %s, cleanup %d\n", R == PTHREAD_CANCELED ? "yes" : "no",
         atomic_load(&CleanedUp));
  pthread_create(&T[0], NULL, sleepForever, NULL);
  sem_wait(&Done);
  pthread_cancel(T[0]);
  pthread_join(T[0], &R);
  printf("cancelled in sleep: %s\n", R == PTHREAD_CANCELED ? "yes" : "no");

  // pthread_kill reaches the thread named; kill() a thread that does not block it.
  signal(SIGUSR1, onUsr);
  pthread_create(&Target, NULL, awaitSignal, NULL);
  pthread_kill(Target, SIGUSR1);
  pthread_join(Target, NULL);
  printf("pthread_kill handled by %s\n", atomic_load(&HandledBy) == 1 ? "the target" : "another thread");
  atomic_store(&HandledBy, 0);
  sigset_t Usr;
  sigemptyset(&Usr);
  sigaddset(&Usr, SIGUSR1);
  pthread_create(&Target, NULL, awaitSignal, NULL);
  pthread_sigmask(SIG_BLOCK, &Usr, NULL); // only the thread can take it
  kill(getpid(), SIGUSR1);
  pthread_join(Target, NULL);
  printf("kill handled by %s\n", atomic_load(&HandledBy) == 1 ? "the unblocked thread" : "another thread");
  pthread_sigmask(SIG_UNBLOCK, &Usr, NULL);

  pthread_create(&T[0], NULL, timedWait, NULL);
  pthread_join(T[0], &R);
  printf("pthread_cond_timedwait: %s\n", strerror((int)(intptr_t)R));
  atomic_store(&HandledBy, 0);
  pthread_create(&Target, NULL, sleepLong, NULL);
  sem_wait(&Done);
  struct timespec Pause = {0, 20000000};
  nanosleep(&Pause, NULL); // the thread sleeps now
  pthread_kill(Target, SIGUSR1);
  pthread_join(Target, &R);
  printf("sleep cut short by a signal, 29 s left: %s, handled by %s\n", R ? "yes" : "no",
         atomic_load(&HandledBy) == 1 ? "the sleeper" : "another thread");

  sigset_t Both;
  sigemptyset(&Both);
  sigaddset(&Both, SIGUSR1);
  sigaddset(&Both, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &Both, NULL); // only sigwaitinfo takes them
  pthread_create(&Target, NULL, takeSignals, &Both);
  kill(getpid(), SIGUSR1);
  pthread_kill(Target, SIGUSR2);
  pthread_join(Target, NULL);
  printf("sigwaitinfo: SIGUSR1 si_code %d, SIGUSR2 si_code %d; sigtimedwait timed out: %s\n", Codes[0], Codes[1],
         Codes[2] == EAGAIN ? "yes" : "no");

  fflush(stdout);
  Main = pthread_self();
  pthread_create(&T[0], NULL, outlive, NULL);
  pthread_exit(NULL);
}
