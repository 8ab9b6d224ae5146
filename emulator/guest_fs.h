// The emulated process's private file system: a tree of folders, files and
// devices in the executor's memory, and the process's file descriptors. No
// host file is ever opened for it. It holds
//   /                 the working directory, the process's own (writable)
//   /tmp              sticky and writable by everyone, as on Linux
//   /dev/null, /dev/zero, /dev/full, /dev/urandom, /dev/random
//                     (urandom and random: a seeded generator, the same
//                     bytes in every run)
//   /usr/lib/locale/C.utf8/...   the embedded C.UTF-8 locale, read-only, root's
//   input files the client sent (run-main's files), read-only (0444)
// and whatever the program creates. Files' bytes count against the run's
// memory cap (Charge); a write past it fails with ENOSPC, as a full tmpfs.
//
// Calls answer as Linux does for a process of uid/gid 1000 (not root:
// permissions apply), with a negative errno on failure. The system-call
// layer (linux_syscalls.cpp) reads and writes guest memory and translates
// each arch's open flags into the generic encoding below; fds 0-2 start as
// the streams (stdin, stdout, stderr), which that layer serves.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linklab::emu {

// open(2) flags as x86, i386 and RISC-V number them (Arm and AArch64 differ
// in Directory, NoFollow, Direct and LargeFile).
namespace oflag {
constexpr uint32_t AccessMode = 3, WriteOnly = 1, ReadWrite = 2, Create = 0100, Exclusive = 0200, Truncate = 01000,
                   Append = 02000, NonBlock = 04000, Direct = 040000, LargeFile = 0100000, Directory = 0200000,
                   NoFollow = 0400000, CloseOnExec = 02000000, Path = 010000000, TmpFile = 020000000 | Directory;
} // namespace oflag

class GuestFs {
public:
  static constexpr int64_t AtFdCwd = -100;
  static constexpr uint32_t Uid = 1000, MaxFds = 1024; // RLIMIT_NOFILE's soft limit
  static constexpr size_t PathMax = 4096, NameMax = 255;

  struct Stat {
    uint32_t mode = 0, uid = 0, gid = 0, nlink = 1;
    uint64_t ino = 0, size = 0, rdev = 0, dev = 0;
    int64_t mtimeNs = 0; // also the access and change times
  };
  struct DirEntry {
    uint64_t ino;
    uint8_t type; // DT_DIR 4, DT_REG 8, DT_CHR 2
    std::string name;
  };

  // Charge(Delta): the files' bytes grow (Delta > 0: false if the memory
  // cap forbids it) or shrink. Now: the clock for modification times.
  GuestFs(std::function<bool(int64_t)> Charge, std::function<int64_t()> Now);
  ~GuestFs();
  GuestFs(const GuestFs &) = delete;
  GuestFs &operator=(const GuestFs &) = delete;

  // An input file the client sent: read-only, at Path (relative to /),
  // replacing a file there; missing folders are made. An error message, or
  // empty.
  std::string addInput(std::string_view Path, std::span<const uint8_t> Bytes);

  // ---- descriptors ----
  // The stream (0 stdin, 1 stdout, 2 stderr) Fd refers to, if it does.
  std::optional<int> stream(int64_t Fd) const;
  bool isOpen(int64_t Fd) const;
  int64_t highestFd() const; // -1 with none open
  int64_t open(int64_t DirFd, std::string_view Path, uint32_t Flags, uint32_t Mode);
  int64_t close(int64_t Fd);
  int64_t dup(int64_t Fd, int64_t Lowest = 0, bool CloseOnExec = false); // fcntl F_DUPFD too
  int64_t dup3(int64_t Old, int64_t New, uint32_t Flags); // dup2: Flags 0, Old == New allowed by the caller
  // fcntl: the descriptor flag and the file status flags (access mode,
  // O_APPEND, O_NONBLOCK; streams: a pipe's ends).
  int64_t getCloseOnExec(int64_t Fd) const;
  int64_t setCloseOnExec(int64_t Fd, bool On);
  int64_t getStatus(int64_t Fd) const;
  int64_t setStatus(int64_t Fd, uint32_t Flags);

  // Files and devices (not streams). At: pread/pwrite's offset (the
  // position neither used nor moved).
  int64_t read(int64_t Fd, uint64_t Len, std::vector<uint8_t> &Out, std::optional<uint64_t> At = {});
  int64_t write(int64_t Fd, std::span<const uint8_t> Bytes, std::optional<uint64_t> At = {});
  int64_t seek(int64_t Fd, int64_t Off, uint64_t Whence);
  int64_t truncate(int64_t Fd, int64_t Len);
  int64_t truncate(int64_t DirFd, std::string_view Path, int64_t Len);
  // A private copy's source for mmap: the bytes of a file open for reading.
  int64_t mapSource(int64_t Fd, std::span<const uint8_t> &Bytes) const;
  // A folder's entries from its position ("." and ".." first): Emit takes
  // each with the position after it until it answers false (the caller's
  // buffer is full). The number emitted, or an errno.
  int64_t readDir(int64_t Fd, const std::function<bool(const DirEntry &, uint64_t Next)> &Emit);

  // ---- paths ----
  // EmptyPath: AT_EMPTY_PATH (an empty Path names DirFd itself).
  int64_t stat(int64_t Fd, Stat &S) const;
  int64_t stat(int64_t DirFd, std::string_view Path, bool EmptyPath, Stat &S) const;
  int64_t access(int64_t DirFd, std::string_view Path, uint32_t Mode) const;
  int64_t mkdir(int64_t DirFd, std::string_view Path, uint32_t Mode);
  int64_t unlink(int64_t DirFd, std::string_view Path, bool Folder); // unlink, rmdir, unlinkat(AT_REMOVEDIR)
  int64_t rename(int64_t OldDir, std::string_view Old, int64_t NewDir, std::string_view New, uint32_t Flags);
  int64_t chdir(int64_t DirFd, std::string_view Path); // fchdir: Path empty
  std::string cwd() const;                             // "(unreachable)/..." once removed, as Linux says
  uint32_t umask(uint32_t Mask);

  uint64_t bytes() const { return Held; } // what files hold

  struct Node;
  struct Description;

private:
  struct Lookup;
  int64_t resolve(int64_t DirFd, std::string_view Path, Lookup &L, bool EmptyPath = false) const;
  int64_t place(std::shared_ptr<Description> D, int64_t Lowest, bool CloseOnExec);
  const Description *description(int64_t Fd) const;
  Description *description(int64_t Fd);
  std::shared_ptr<Node> makeNode(uint8_t Kind, uint32_t Mode, uint32_t Owner);
  bool resize(Node &N, uint64_t Size); // false: over the memory cap
  bool permits(const Node &N, uint32_t Want) const;
  Stat statOf(const Node &N) const;
  uint64_t random();

  std::function<bool(int64_t)> Charge;
  std::function<int64_t()> Now;
  uint64_t Held = 0, NextIno = 2, RandomState = 0x2f6465762f75726eull; // "/dev/urn"
  uint32_t Mask = 022;
  bool Booting = true; // the tree the system provides costs the process nothing
  std::shared_ptr<Node> Root, Cwd;
  struct Slot {
    std::shared_ptr<Description> d;
    bool closeOnExec = false;
  };
  std::map<int64_t, Slot> Fds;
  friend struct Node;
};

} // namespace linklab::emu
