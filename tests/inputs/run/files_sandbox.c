// What the process's private file system keeps apart from a native run
// (argv[1] picks one): the host's files are not there, an input file the
// client sent is read-only, and files' bytes count against -max-memory.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *name(long R) { return R < 0 ? strerrorname_np(errno) : "ok"; }

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  struct stat St;
  if (!strcmp(Mode, "host")) {
    printf("open /etc/passwd: %s\n", name(open("/etc/passwd", O_RDONLY)));
    printf("stat /etc: %s\n", name(stat("/etc", &St)));
    printf("open /proc/self/maps: %s\n", name(open("/proc/self/maps", O_RDONLY)));
    printf("fopen /bin/sh: %s\n", fopen("/bin/sh", "r") ? "opened" : strerrorname_np(errno));
    printf("create /etc/x: %s\n", name(open("/etc/x", O_WRONLY | O_CREAT, 0644)));
    printf("create /dev/x: %s\n", name(open("/dev/x", O_WRONLY | O_CREAT, 0644)));
    printf("create in the locale: %s\n", name(open("/usr/lib/locale/C.utf8/x", O_WRONLY | O_CREAT, 0644)));
    printf("write the locale: %s\n", name(open("/usr/lib/locale/C.utf8/LC_CTYPE", O_WRONLY)));
    return 0;
  }
  if (!strcmp(Mode, "readonly")) {
    printf("write input: %s\n", name(open("data/in.txt", O_WRONLY)));
    printf("read-write input: %s\n", name(open("data/in.txt", O_RDWR)));
    printf("truncate input: %s\n", name(truncate("data/in.txt", 0)));
    printf("access W_OK: %s\n", name(access("data/in.txt", W_OK)));
    char Buf[64] = {0};
    int Fd = open("/data/in.txt", O_RDONLY);
    printf("read input: %ld '%s'\n", (long)read(Fd, Buf, sizeof Buf - 1), Buf);
    fstat(Fd, &St);
    printf("mode %o size %lld\n", St.st_mode & 07777, (long long)St.st_size);
    return 0;
  }
  if (!strcmp(Mode, "cap")) { // run with -max-memory=4Mb
    static char Chunk[65536];
    memset(Chunk, 'x', sizeof Chunk);
    int Fd = open("/tmp/big", O_WRONLY | O_CREAT, 0600);
    long Total = 0, N;
    while ((N = write(Fd, Chunk, sizeof Chunk)) > 0)
      Total += N;
    printf("write until full: %s, %s\n", name(N), Total > 1024 * 1024 && Total < 4 * 1024 * 1024 ? "between 1 and 4 MiB" : "wrong size");
    printf("grow past the cap: %s\n", name(ftruncate(Fd, 64 << 20)));
    close(Fd);
    printf("unlink: %s\n", name(unlink("/tmp/big")));
    Fd = open("/tmp/again", O_WRONLY | O_CREAT, 0600);
    printf("room again: %s\n", write(Fd, Chunk, sizeof Chunk) == sizeof Chunk ? "yes" : strerrorname_np(errno));
    return 0;
  }
  if (!strcmp(Mode, "many")) { // run with -max-memory=4Mb: empty files cost too
    char Name[64];
    long N = 0, R;
    do
      snprintf(Name, sizeof Name, "/tmp/f%ld", N++);
    while ((R = open(Name, O_WRONLY | O_CREAT, 0600)) >= 0 && close((int)R) == 0);
    printf("create until full: %s, %s\n", name(R), N > 1000 && N < 20000 ? "1000 to 20000 files" : "wrong count");
    return 0;
  }
  if (!strcmp(Mode, "deep")) { // run with -max-memory=64Mb: folders as deep as it allows
    long Depth = 0, R;
    while ((R = mkdir("d", 0755)) == 0 && chdir("d") == 0)
      ++Depth;
    printf("nest until full: %s, %s\n", name(R), Depth > 100000 ? "deeper than 100000" : "shallow");
    char Buf[64];
    printf("getcwd: %s\n", getcwd(Buf, sizeof Buf) ? "ok" : strerrorname_np(errno));
    return 0; // the executor then frees the whole tree
  }
  return 1;
}
