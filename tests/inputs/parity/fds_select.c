// The standard streams as descriptors: fcntl's flags (fdopen asks for
// them), select and pselect on them, poll, waiting for children the process
// never has. Reads its stdin (fds_select.stdin).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int Before = fcntl(1, F_GETFD), Set = fcntl(1, F_SETFD, FD_CLOEXEC), After = fcntl(1, F_GETFD);
  int Mode0 = fcntl(0, F_GETFL) & O_ACCMODE, Mode1 = fcntl(1, F_GETFL) & O_ACCMODE;
  printf("F_GETFD=%d F_SETFD=%d now=%d accmode0=%d accmode1=%d\n", Before, Set, After, Mode0, Mode1);
  fcntl(1, F_SETFD, 0);
  errno = 0;
  int R = fcntl(900, F_GETFD);
  printf("fcntl(900)=%d %s\n", R, strerror(errno));
  FILE *Out = fdopen(1, "w");
  printf("fdopen(1)=%s\n", Out ? "ok" : strerror(errno));
  fflush(stdout);
  if (Out) {
    fprintf(Out, "through fdopen: %d\n", 42);
    fflush(Out);
  }
  FILE *In = fdopen(0, "r");
  printf("fdopen(0)=%s\n", In ? "ok" : "null");

  // Select and poll stdin once it is at end of file (a pipe whose writer
  // closed: readable, POLLHUP), as before that they race with the writer.
  char Line[64];
  while (fgets(Line, sizeof Line, In))
    printf("line: %s", Line);
  fd_set Rd, Wr, Ex;
  FD_ZERO(&Rd);
  FD_ZERO(&Wr);
  FD_ZERO(&Ex);
  FD_SET(0, &Rd);
  FD_SET(1, &Wr);
  FD_SET(2, &Wr);
  FD_SET(1, &Ex);
  struct timeval Tv = {2, 0};
  R = select(3, &Rd, &Wr, &Ex, &Tv);
  printf("select=%d in0=%d out1=%d out2=%d ex1=%d\n", R, FD_ISSET(0, &Rd), FD_ISSET(1, &Wr), FD_ISSET(2, &Wr),
         FD_ISSET(1, &Ex));
  struct pollfd P[3] = {{0, POLLIN, 0}, {1, POLLOUT, 0}, {1000, POLLIN, 0}};
  R = poll(P, 3, 100);
  printf("poll=%d %x %x %x\n", R, P[0].revents, P[1].revents, P[2].revents);
  FD_ZERO(&Rd);
  FD_SET(60, &Rd); // not open, inside the fd table (fds past its size are ignored)
  errno = 0;
  R = select(61, &Rd, NULL, NULL, &Tv);
  printf("select closed fd=%d %s\n", R, strerror(errno));
  struct timeval Short = {0, 20000};
  R = select(0, NULL, NULL, NULL, &Short);
  printf("select sleep=%d left=%ld.%06ld\n", R, (long)Short.tv_sec, (long)Short.tv_usec);
  FD_ZERO(&Wr);
  FD_SET(1, &Wr);
  struct timespec Ts = {1, 0};
  sigset_t Mask;
  sigemptyset(&Mask);
  R = pselect(2, NULL, &Wr, NULL, &Ts, &Mask);
  printf("pselect=%d out1=%d\n", R, FD_ISSET(1, &Wr));
  errno = 0;
  R = select(-1, NULL, NULL, NULL, &Tv);
  printf("select(-1)=%d %s\n", R, strerror(errno));

  errno = 0;
  pid_t W = wait(NULL);
  printf("wait=%d %s\n", (int)W, strerror(errno));
  errno = 0;
  W = waitpid(-1, NULL, WNOHANG);
  printf("waitpid=%d %s\n", (int)W, strerror(errno));
  siginfo_t Info;
  errno = 0;
  R = waitid(P_ALL, 0, &Info, WEXITED);
  printf("waitid=%d %s\n", R, strerror(errno));
  return 0;
}
