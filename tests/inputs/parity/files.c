// Files the program makes for itself: create, write, read back, seek,
// stat, truncate, rename, unlink, folders and their entries, tmpfile,
// mkstemp, dup, the devices, and the errno of calls that fail, all under a
// fresh folder in /tmp; and files.input, an input file beside the program
// (linklab: -file files.input=...; the reference runs in its folder).
// 64-bit offsets on every arch: a host file system's 64-bit directory
// offsets overflow the 32-bit arches' old readdir (EOVERFLOW).
#define _FILE_OFFSET_BITS 64
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char Dir[] = "/tmp/linklab-files-XXXXXX";

static const char *at(const char *Name) {
  static char Paths[4][512];
  static int Next;
  char *P = Paths[Next++ % 4];
  snprintf(P, sizeof Paths[0], "%s/%s", Dir, Name);
  return P;
}

// A call's result, and errno's name when it failed.
static void show(const char *What, long R) {
  if (R < 0)
    printf("%s: %ld %s\n", What, R, strerrorname_np(errno));
  else
    printf("%s: %ld\n", What, R);
}

static int byName(const void *A, const void *B) { return strcmp(*(char *const *)A, *(char *const *)B); }

static void list(const char *Path) {
  DIR *D = opendir(Path);
  if (!D) {
    printf("opendir %s\n", strerrorname_np(errno));
    return;
  }
  char *Names[64];
  int N = 0;
  errno = 0;
  for (struct dirent *E; (E = readdir(D)) && N < 64;)
    if (asprintf(&Names[N], "%s%s", E->d_name, E->d_type == DT_DIR ? "/" : E->d_type == DT_REG ? "" : "?") > 0)
      ++N;
  if (errno)
    printf("readdir %s\n", strerrorname_np(errno));
  closedir(D);
  qsort(Names, N, sizeof *Names, byName);
  printf("entries:");
  for (int I = 0; I < N; ++I)
    printf(" %s", Names[I]), free(Names[I]);
  printf("\n");
}

int main(void) {
  umask(022);
  if (!mkdtemp(Dir)) {
    perror("mkdtemp");
    return 1;
  }
  // stdio: write, then read back line by line.
  FILE *F = fopen(at("a.txt"), "w");
  for (int I = 0; I < 3; ++I)
    fprintf(F, "line %d\n", I);
  show("fclose", fclose(F));
  F = fopen(at("a.txt"), "r");
  char Line[128];
  while (fgets(Line, sizeof Line, F))
    printf("read back: %s", Line);
  fclose(F);
  F = fopen(at("a.txt"), "a");
  fputs("appended\n", F);
  printf("ftell after append: %ld\n", ftell(F));
  fclose(F);

  // Descriptors: write, seek, read, pread/pwrite, truncate, stat.
  int Fd = open(at("b.bin"), O_RDWR | O_CREAT | O_TRUNC, 0640);
  show("write", write(Fd, "hello world", 11));
  show("lseek set", lseek(Fd, 6, SEEK_SET));
  char Buf[64] = {0};
  show("read", read(Fd, Buf, 5));
  printf("got '%s'\n", Buf);
  show("lseek end", lseek(Fd, 0, SEEK_END));
  show("lseek cur", lseek(Fd, -3, SEEK_CUR));
  show("pwrite", pwrite(Fd, "J", 1, 0));
  memset(Buf, 0, sizeof Buf);
  show("pread", pread(Fd, Buf, 64, 0));
  printf("got '%s'\n", Buf);
  show("position kept", lseek(Fd, 0, SEEK_CUR));
  show("lseek past end", lseek(Fd, 100, SEEK_SET));
  show("write past end", write(Fd, "!", 1));
  struct stat St;
  show("fstat", fstat(Fd, &St));
  printf("size %lld regular %d mode %o nlink %ld\n", (long long)St.st_size, S_ISREG(St.st_mode), St.st_mode & 07777,
         (long)St.st_nlink);
  show("ftruncate", ftruncate(Fd, 5));
  show("ftruncate grow", ftruncate(Fd, 4096 * 3 + 7));
  show("stat", stat(at("b.bin"), &St));
  printf("size %lld\n", (long long)St.st_size);
  show("pread hole", pread(Fd, Buf, 8, 4096));
  printf("zeros: %d\n", Buf[0] == 0 && Buf[7] == 0);
  show("fsync", fsync(Fd));

  // dup shares the position; fcntl reports the access mode.
  int Fd2 = dup(Fd);
  show("dup > 2", Fd2 > 2);
  lseek(Fd, 2, SEEK_SET);
  show("shared position", lseek(Fd2, 0, SEEK_CUR));
  show("dup2", dup2(Fd, 20));
  show("F_GETFL accmode", fcntl(20, F_GETFL) & O_ACCMODE);
  show("close dup2", close(20));
  show("close again", close(20));
  show("close dup", close(Fd2));
  show("close", close(Fd));

  // Failures.
  show("open missing", open(at("missing"), O_RDONLY));
  show("open excl", open(at("b.bin"), O_RDWR | O_CREAT | O_EXCL, 0600));
  show("open folder for writing", open(Dir, O_WRONLY));
  show("open through a file", open(at("b.bin/x"), O_RDONLY));
  show("open O_DIRECTORY file", open(at("b.bin"), O_RDONLY | O_DIRECTORY));
  show("open create trailing slash", open(at("new/"), O_RDWR | O_CREAT, 0600));
  show("open empty path", open("", O_RDONLY));
  char Long[300];
  memset(Long, 'x', sizeof Long - 1), Long[sizeof Long - 1] = 0;
  show("open long name", open(at(Long), O_RDONLY | O_CREAT, 0600));
  show("openat bad dirfd", openat(77, "x", O_RDONLY));
  Fd = open(at("b.bin"), O_RDONLY);
  show("openat file dirfd", openat(Fd, "x", O_RDONLY));
  show("write read-only fd", write(Fd, "x", 1));
  show("ftruncate read-only fd", ftruncate(Fd, 0));
  show("lseek negative", lseek(Fd, -1, SEEK_SET));
  close(Fd);
  show("read closed fd", read(Fd, Buf, 1));
  show("mkdir", mkdir(at("sub"), 0755));
  show("mkdir again", mkdir(at("sub"), 0755));
  show("mkdir no parent", mkdir(at("none/sub"), 0755));
  show("unlink folder", unlink(at("sub")));
  show("rmdir file", rmdir(at("b.bin")));
  show("stat missing", stat(at("missing"), &St));
  show("stat through a file", stat(at("a.txt/"), &St));
  show("access", access(at("a.txt"), R_OK | W_OK));
  show("access missing", access(at("missing"), F_OK));

  // Folders: entries, rename, rmdir.
  const char *Made[] = {"sub/c", "sub/a", "sub/b"};
  for (int I = 0; I < 3; ++I)
    close(open(at(Made[I]), O_WRONLY | O_CREAT, 0644));
  show("mkdir sub/inner", mkdir(at("sub/inner"), 0700));
  list(at("sub"));
  show("rmdir not empty", rmdir(at("sub")));
  show("rename", rename(at("sub/a"), at("sub/z")));
  show("stat renamed", stat(at("sub/z"), &St));
  show("stat old name", stat(at("sub/a"), &St));
  show("rename over file", rename(at("sub/b"), at("sub/c")));
  show("rename file over folder", rename(at("sub/c"), at("sub/inner")));
  show("rename folder over file", rename(at("sub/inner"), at("sub/z")));
  show("rename folder into itself", rename(at("sub"), at("sub/inner/x")));
  show("rename missing", rename(at("sub/nothing"), at("sub/y")));
  show("renameat2 noreplace", renameat2(AT_FDCWD, at("sub/z"), AT_FDCWD, at("sub/c"), RENAME_NOREPLACE));
  list(at("sub"));
  show("stat folder", stat(at("sub"), &St));
  printf("folder %d mode %o nlink %ld\n", S_ISDIR(St.st_mode), St.st_mode & 07777, (long)St.st_nlink);
  int DirFd = open(at("sub"), O_RDONLY | O_DIRECTORY);
  Fd = openat(DirFd, "new", O_WRONLY | O_CREAT, 0600);
  show("openat in folder", Fd < 0 ? Fd : Fd > 2); // its number depends on what the process inherited
  close(Fd);
  show("fstatat", fstatat(DirFd, "new", &St, 0));
  printf("mode %o\n", St.st_mode & 07777);
  show("unlinkat", unlinkat(DirFd, "new", 0));
  show("unlinkat folder without flag", unlinkat(DirFd, "inner", 0));
  show("unlinkat AT_REMOVEDIR", unlinkat(DirFd, "inner", AT_REMOVEDIR));
  close(DirFd);
  show("unlink", unlink(at("sub/z")));
  show("unlink", unlink(at("sub/c")));
  show("unlink again", unlink(at("sub/z")));
  show("rmdir", rmdir(at("sub")));

  // An unlinked file stays readable while open.
  Fd = open(at("gone"), O_RDWR | O_CREAT, 0600);
  write(Fd, "still here", 10);
  show("unlink open file", unlink(at("gone")));
  fstat(Fd, &St);
  printf("nlink %ld size %lld\n", (long)St.st_nlink, (long long)St.st_size);
  memset(Buf, 0, sizeof Buf);
  pread(Fd, Buf, 10, 0);
  printf("got '%s'\n", Buf);
  close(Fd);

  // tmpfile and mkstemp.
  F = tmpfile();
  printf("tmpfile: %s\n", F ? "ok" : strerrorname_np(errno));
  fputs("temporary\n", F);
  rewind(F);
  printf("tmpfile reads: %s", fgets(Line, sizeof Line, F));
  fstat(fileno(F), &St);
  printf("tmpfile nlink %ld\n", (long)St.st_nlink);
  fclose(F);
  char Tmpl[64];
  snprintf(Tmpl, sizeof Tmpl, "%s/tmp-XXXXXX", Dir);
  Fd = mkstemp(Tmpl);
  show("mkstemp > 2", Fd > 2);
  show("mkstemp write", write(Fd, "abc", 3));
  fstat(Fd, &St);
  printf("mkstemp mode %o\n", St.st_mode & 07777);
  close(Fd);
  show("unlink mkstemp", unlink(Tmpl));

  // Devices.
  Fd = open("/dev/null", O_RDWR);
  show("null write", write(Fd, "xyz", 3));
  show("null read", read(Fd, Buf, sizeof Buf));
  fstat(Fd, &St);
  printf("null: chr %d dev %u:%u\n", S_ISCHR(St.st_mode), major(St.st_rdev), minor(St.st_rdev));
  close(Fd);
  Fd = open("/dev/zero", O_RDONLY);
  memset(Buf, 1, sizeof Buf);
  show("zero read", read(Fd, Buf, 16));
  int Zeros = 0;
  for (int I = 0; I < 16; ++I)
    Zeros += Buf[I] == 0;
  printf("zeros %d\n", Zeros);
  close(Fd);
  Fd = open("/dev/urandom", O_RDONLY);
  show("urandom read", read(Fd, Buf, 32));
  close(Fd);
  F = fopen("/dev/null", "w");
  show("fprintf to /dev/null", fprintf(F, "%d", 12345));
  fclose(F);

  // The input file beside the program.
  F = fopen("files.input", "r");
  if (!F)
    printf("files.input: %s\n", strerrorname_np(errno));
  while (F && fgets(Line, sizeof Line, F))
    printf("input: %s", Line);
  if (F)
    fclose(F);
  show("stat input", stat("files.input", &St));
  printf("input size %lld\n", (long long)St.st_size);

  show("unlink a.txt", unlink(at("a.txt")));
  show("unlink b.bin", unlink(at("b.bin")));
  show("rmdir the folder", rmdir(Dir));
  show("stat the folder", stat(Dir, &St));
  return 0;
}
