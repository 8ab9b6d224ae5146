#include "guest_fs.h"

#include "guest_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace linklab::emu {

namespace {
enum Kind : uint8_t { Folder, File, Device, Stream };
enum DeviceKind : uint8_t { Null, Zero, Full, Random };
constexpr uint32_t IfDir = 0040000, IfReg = 0100000, IfChr = 0020000, IfFifo = 0010000, Sticky = 01000;
constexpr uint32_t MayRead = 4, MayWrite = 2, MaySearch = 1;
constexpr uint32_t StatusFlags = oflag::AccessMode | oflag::Append | oflag::NonBlock;
// What each file, folder or device costs against the memory cap besides
// its bytes (its record, its name): millions of empty files are not free.
constexpr int64_t NodeCost = 256;
} // namespace

struct GuestFs::Node {
  GuestFs *fs = nullptr;
  uint8_t kind = File, device = Null;
  uint32_t mode = 0, uid = 0, links = 0;
  uint64_t ino = 0;
  int64_t mtime = 0;
  std::vector<uint8_t> data;      // a file's bytes
  std::span<const uint8_t> fixed; // or, for an embedded read-only file, these
  bool isFixed = false;
  bool charged = false;                                               // its NodeCost counts (what the process made)
  std::map<std::string, std::shared_ptr<Node>, std::less<>> children; // a folder's
  std::weak_ptr<Node> parent; // a folder's ".." (empty once removed; the root's is itself)
  bool removed() const { return parent.expired(); }

  uint64_t size() const { return isFixed ? fixed.size() : data.size(); }
  std::span<const uint8_t> bytes() const { return isFixed ? fixed : std::span<const uint8_t>(data); }
  ~Node() {
    if (fs && fs->Charge)
      fs->Held -= data.size(), fs->Charge(-int64_t(data.size()) - (charged ? NodeCost : 0));
    // A folder's subtree goes without recursion: folders may nest as deep
    // as the memory cap allows.
    std::vector<std::shared_ptr<Node>> Pending;
    for (auto &[Name, C] : children)
      Pending.push_back(std::move(C));
    children.clear();
    while (!Pending.empty()) {
      std::shared_ptr<Node> C = std::move(Pending.back());
      Pending.pop_back();
      if (C.use_count() == 1) {
        for (auto &[Name, G] : C->children)
          Pending.push_back(std::move(G));
        C->children.clear();
      }
    }
  }
};

struct GuestFs::Description {
  std::shared_ptr<Node> node; // null for a stream
  int stream = -1;
  uint64_t pos = 0;
  uint32_t flags = 0; // access mode, O_APPEND, O_NONBLOCK, O_PATH
  bool canRead() const { return !(flags & oflag::Path) && (flags & oflag::AccessMode) != oflag::WriteOnly; }
  bool canWrite() const { return !(flags & oflag::Path) && (flags & oflag::AccessMode) != 0; }
};

// A path resolved up to its last component: the folder holding it (null
// for "/", "." and ".."), its name, and what it names (null: nothing).
struct GuestFs::Lookup {
  std::shared_ptr<Node> parent, node;
  std::string name;
  bool trailingSlash = false;
};

GuestFs::GuestFs(std::function<bool(int64_t)> Charge, std::function<int64_t()> Now)
    : Charge(std::move(Charge)), Now(std::move(Now)) {
  Root = makeNode(Folder, 0755, Uid); // the working directory: the process's own
  Root->parent = Root;
  Root->links = 1;
  Cwd = Root;
  auto Add = [&](const std::shared_ptr<Node> &Dir, std::string Name, std::shared_ptr<Node> N) {
    if (N->kind == Folder)
      N->parent = Dir;
    N->links = 1;
    return Dir->children[std::move(Name)] = std::move(N);
  };
  Add(Root, "tmp", makeNode(Folder, 0777 | Sticky, 0));
  auto Dev = Add(Root, "dev", makeNode(Folder, 0755, 0));
  for (auto [Name, Kind] :
       {std::pair{"null", Null}, {"zero", Zero}, {"full", Full}, {"urandom", Random}, {"random", Random}}) {
    auto D = makeNode(Device, 0666, 0);
    D->device = Kind;
    Add(Dev, Name, D);
  }
  // The embedded locale, read-only and root's, as the system installs it.
  std::shared_ptr<Node> Locale = Root;
  for (std::string_view Part : {"usr", "lib", "locale", "C.utf8"})
    Locale = Add(Locale, std::string(Part), makeNode(Folder, 0755, 0));
  for (const GuestFileData &F : LocaleCUtf8) {
    std::shared_ptr<Node> Dir = Locale;
    std::string_view Rel = F.path;
    for (size_t Slash; (Slash = Rel.find('/')) != std::string_view::npos; Rel.remove_prefix(Slash + 1)) {
      auto It = Dir->children.find(Rel.substr(0, Slash));
      Dir = It != Dir->children.end() ? It->second
                                      : Add(Dir, std::string(Rel.substr(0, Slash)), makeNode(Folder, 0755, 0));
    }
    auto N = makeNode(File, 0644, 0);
    N->fixed = F.bytes, N->isFixed = true;
    Add(Dir, std::string(Rel), N);
  }
  for (int S = 0; S < 3; ++S) {
    auto D = std::make_shared<Description>();
    D->stream = S, D->flags = S ? oflag::WriteOnly : 0; // a pipe's ends
    Fds[S] = {D, false};
  }
  Booting = false;
}

GuestFs::~GuestFs() {
  Charge = nullptr; // the owner is going away: nothing to give back
  Fds.clear();
  Cwd.reset();
  // Folders hold their children; break the root's cycle-free tree from the top.
  Root.reset();
}

std::shared_ptr<GuestFs::Node> GuestFs::makeNode(uint8_t K, uint32_t Mode, uint32_t Owner) {
  if (!Booting && !Charge(NodeCost))
    return nullptr;
  auto N = std::make_shared<Node>();
  N->charged = !Booting;
  N->fs = this, N->kind = K, N->mode = Mode, N->uid = Owner, N->ino = NextIno++, N->mtime = Now();
  return N;
}

bool GuestFs::resize(Node &N, uint64_t Size) {
  int64_t Delta = int64_t(Size) - int64_t(N.data.size());
  if (Delta > 0 && (Size > (uint64_t(1) << 40) || !Charge(Delta)))
    return false;
  if (Delta < 0)
    Charge(Delta);
  Held += uint64_t(Delta);
  N.data.resize(Size);
  if (Delta < 0)
    N.data.shrink_to_fit();
  return true;
}

bool GuestFs::permits(const Node &N, uint32_t Want) const {
  uint32_t Bits = N.uid == Uid ? N.mode >> 6 : N.mode;
  return (Bits & Want) == Want;
}

std::string GuestFs::addInput(std::string_view Path, std::span<const uint8_t> Bytes) {
  std::shared_ptr<Node> Dir = Root;
  std::string_view Rest = Path;
  while (Rest.starts_with('/'))
    Rest.remove_prefix(1);
  for (size_t Slash; (Slash = Rest.find('/')) != std::string_view::npos;) {
    std::string_view Part = Rest.substr(0, Slash);
    Rest.remove_prefix(Slash + 1);
    if (Part.empty() || Part == ".")
      continue;
    if (Part == ".." || Part.size() > NameMax)
      return "input file '" + std::string(Path) + "': a folder name must not be '..' or longer than 255 bytes";
    auto &Child = Dir->children[std::string(Part)];
    if (!Child) {
      if (!(Child = makeNode(Folder, 0755, Uid)))
        return "input file '" + std::string(Path) + "': over the memory cap";
      Child->parent = Dir, Child->links = 1;
    } else if (Child->kind != Folder) {
      return "input file '" + std::string(Path) + "': '" + std::string(Part) + "' is not a folder";
    }
    Dir = Child;
  }
  if (Rest.empty() || Rest == "." || Rest == ".." || Rest.size() > NameMax || Path.size() >= PathMax)
    return "input file '" + std::string(Path) + "': not a file name";
  auto &Slot = Dir->children[std::string(Rest)];
  if (Slot && Slot->kind != File)
    return "input file '" + std::string(Path) + "': a folder or device is there";
  auto N = makeNode(File, 0444, Uid);
  if (!N)
    return "input file '" + std::string(Path) + "': over the memory cap";
  N->links = 1;
  if (!Bytes.empty()) {
    Held += Bytes.size();
    Charge(int64_t(Bytes.size())); // counted whether or not it fits: the client chose it
    N->data.assign(Bytes.begin(), Bytes.end());
  }
  if (Slot)
    Slot->links = 0;
  Slot = N;
  return {};
}

// ---- path resolution ------------------------------------------------------

int64_t GuestFs::resolve(int64_t DirFd, std::string_view Path, Lookup &L, bool EmptyPath) const {
  if (Path.size() >= PathMax)
    return -ENAMETOOLONG;
  std::shared_ptr<Node> Dir;
  if (Path.starts_with('/')) {
    Dir = Root;
  } else if (DirFd == AtFdCwd) {
    Dir = Cwd;
  } else {
    const Description *D = description(DirFd);
    if (!D)
      return -EBADF;
    if (Path.empty() && EmptyPath) {
      if (!D->node)
        return -EBADF; // a stream: the caller answers for it
      L.node = D->node;
      return 0;
    }
    if (!D->node || D->node->kind != Folder)
      return -ENOTDIR;
    Dir = D->node;
  }
  if (Path.empty())
    return -ENOENT;
  L.trailingSlash = Path.ends_with('/');
  std::vector<std::string_view> Parts;
  for (size_t At = 0; At < Path.size();) {
    size_t End = std::min(Path.find('/', At), Path.size());
    if (End > At) {
      if (End - At > NameMax)
        return -ENAMETOOLONG;
      Parts.push_back(Path.substr(At, End - At));
    }
    At = End + 1;
  }
  // Each folder on the way must be searchable, and exist.
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (Dir->kind != Folder)
      return -ENOTDIR;
    if (!permits(*Dir, MaySearch))
      return -EACCES;
    std::string_view P = Parts[I];
    bool Last = I + 1 == Parts.size();
    std::shared_ptr<Node> Next;
    if (P == "." || P == "..") {
      if (P == "..") {
        if (Dir->removed())
          return -ENOENT;
        Next = Dir->parent.lock();
      } else {
        Next = Dir;
      }
      if (Last) {
        L.node = Next;
        return 0;
      }
      Dir = Next;
      continue;
    }
    auto It = Dir->children.find(P);
    if (Last) {
      L.parent = Dir, L.name = std::string(P);
      L.node = It == Dir->children.end() ? nullptr : It->second;
      if (L.node && L.trailingSlash && L.node->kind != Folder)
        return -ENOTDIR;
      return 0;
    }
    if (It == Dir->children.end())
      return -ENOENT;
    Dir = It->second;
  }
  L.node = Dir; // "/" alone
  return 0;
}

// ---- descriptors ----------------------------------------------------------

const GuestFs::Description *GuestFs::description(int64_t Fd) const {
  auto It = Fds.find(Fd);
  return It == Fds.end() ? nullptr : It->second.d.get();
}
GuestFs::Description *GuestFs::description(int64_t Fd) {
  auto It = Fds.find(Fd);
  return It == Fds.end() ? nullptr : It->second.d.get();
}

std::optional<int> GuestFs::stream(int64_t Fd) const {
  const Description *D = description(Fd);
  return D && D->stream >= 0 ? std::optional(D->stream) : std::nullopt;
}
bool GuestFs::isOpen(int64_t Fd) const { return Fds.count(Fd); }
int64_t GuestFs::highestFd() const { return Fds.empty() ? -1 : Fds.rbegin()->first; }

int64_t GuestFs::place(std::shared_ptr<Description> D, int64_t Lowest, bool CloseOnExec) {
  int64_t Fd = std::max<int64_t>(Lowest, 0);
  for (auto It = Fds.lower_bound(Fd); It != Fds.end() && It->first == Fd; ++It)
    ++Fd;
  if (Fd >= MaxFds)
    return -EMFILE;
  Fds[Fd] = {std::move(D), CloseOnExec};
  return Fd;
}

int64_t GuestFs::open(int64_t DirFd, std::string_view Path, uint32_t Flags, uint32_t Mode) {
  using namespace oflag;
  uint32_t Access = Flags & AccessMode;
  bool IsPath = Flags & oflag::Path;
  Lookup L;
  if ((Flags & TmpFile) == TmpFile) { // an unnamed file in the folder Path names
    if (Access == 0 || Access == AccessMode || (Flags & Create))
      return -EINVAL;
    if (int64_t R = resolve(DirFd, Path, L))
      return R;
    if (!L.node)
      return -ENOENT;
    if (L.node->kind != Folder)
      return -ENOTDIR;
    if (!permits(*L.node, MayWrite | MaySearch))
      return -EACCES;
    auto D = std::make_shared<Description>();
    D->node = makeNode(File, Mode & 07777 & ~Mask, Uid);
    if (!D->node)
      return -ENOSPC;
    D->flags = Flags & StatusFlags;
    return place(std::move(D), 0, Flags & CloseOnExec);
  }
  if (int64_t R = resolve(DirFd, Path, L))
    return R;
  if (!L.node) {
    if (!(Flags & Create) || IsPath)
      return -ENOENT;
    if (L.trailingSlash)
      return -EISDIR;
    if (!permits(*L.parent, MayWrite | MaySearch))
      return -EACCES;
    if (L.parent->removed())
      return -ENOENT; // a removed folder takes no new entries
    L.node = makeNode(File, Mode & 07777 & ~Mask, Uid);
    if (!L.node)
      return -ENOSPC;
    L.node->links = 1;
    L.parent->children[L.name] = L.node;
    L.parent->mtime = Now();
  } else {
    if ((Flags & Create) && (Flags & Exclusive))
      return -EEXIST;
    if ((Flags & Directory) && L.node->kind != Folder)
      return -ENOTDIR;
    if (L.node->kind == Folder && !IsPath && (Access != 0 || (Flags & Create)))
      return -EISDIR;
    if (!IsPath && (((Access == 0 || Access == ReadWrite) && !permits(*L.node, MayRead)) ||
                    ((Access == WriteOnly || Access == ReadWrite) && !permits(*L.node, MayWrite)) ||
                    ((Flags & Truncate) && Access == 0 && !permits(*L.node, MayWrite))))
      return -EACCES;
    if ((Flags & Truncate) && !IsPath && L.node->kind == File) {
      if (L.node->isFixed)
        return -EACCES;
      resize(*L.node, 0);
      L.node->mtime = Now();
    }
  }
  if (Access == AccessMode && !IsPath)
    return -EINVAL; // Linux's ioctl-only mode: nothing here answers ioctls
  auto D = std::make_shared<Description>();
  D->node = L.node;
  D->flags = IsPath ? oflag::Path : Flags & StatusFlags;
  return place(std::move(D), 0, Flags & CloseOnExec);
}

int64_t GuestFs::close(int64_t Fd) { return Fds.erase(Fd) ? 0 : -EBADF; }

int64_t GuestFs::dup(int64_t Fd, int64_t Lowest, bool CloseOnExec) {
  auto It = Fds.find(Fd);
  if (It == Fds.end())
    return -EBADF;
  if (Lowest < 0 || Lowest >= MaxFds)
    return -EINVAL;
  return place(It->second.d, Lowest, CloseOnExec);
}

int64_t GuestFs::dup3(int64_t Old, int64_t New, uint32_t Flags) {
  auto It = Fds.find(Old);
  if (It == Fds.end())
    return -EBADF;
  if (New < 0 || New >= MaxFds)
    return -EBADF;
  if (Old == New)
    return New;
  Fds[New] = {It->second.d, bool(Flags & oflag::CloseOnExec)};
  return New;
}

int64_t GuestFs::getCloseOnExec(int64_t Fd) const {
  auto It = Fds.find(Fd);
  return It == Fds.end() ? -EBADF : It->second.closeOnExec;
}
int64_t GuestFs::setCloseOnExec(int64_t Fd, bool On) {
  auto It = Fds.find(Fd);
  return It == Fds.end() ? -EBADF : (It->second.closeOnExec = On, 0);
}
int64_t GuestFs::getStatus(int64_t Fd) const {
  const Description *D = description(Fd);
  return D ? int64_t(D->flags) : -EBADF;
}
int64_t GuestFs::setStatus(int64_t Fd, uint32_t Flags) {
  Description *D = description(Fd);
  if (!D)
    return -EBADF;
  constexpr uint32_t Settable = oflag::Append | oflag::NonBlock;
  D->flags = (D->flags & ~Settable) | (Flags & Settable);
  return 0;
}

uint64_t GuestFs::random() { // splitmix64
  uint64_t Z = (RandomState += 0x9e3779b97f4a7c15);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111eb;
  return Z ^ (Z >> 31);
}

int64_t GuestFs::read(int64_t Fd, uint64_t Len, std::vector<uint8_t> &Out, std::optional<uint64_t> At) {
  Description *D = description(Fd);
  if (!D || !D->node || !D->canRead())
    return -EBADF;
  Node &N = *D->node;
  if (N.kind == Folder)
    return -EISDIR;
  if (N.kind == Device) {
    Out.assign(N.device == Null ? 0 : Len, 0);
    if (N.device == Random)
      for (size_t I = 0; I < Out.size(); I += 8) {
        uint64_t R = random();
        std::memcpy(Out.data() + I, &R, std::min<size_t>(8, Out.size() - I));
      }
    return int64_t(Out.size());
  }
  uint64_t Pos = At ? *At : D->pos, Size = N.size();
  uint64_t Count = Pos < Size ? std::min(Len, Size - Pos) : 0;
  Out.clear();
  if (Count)
    Out.assign(N.bytes().begin() + Pos, N.bytes().begin() + Pos + Count);
  if (!At)
    D->pos = Pos + Count;
  return int64_t(Count);
}

int64_t GuestFs::write(int64_t Fd, std::span<const uint8_t> Bytes, std::optional<uint64_t> At) {
  Description *D = description(Fd);
  if (!D || !D->node || !D->canWrite())
    return -EBADF;
  Node &N = *D->node;
  if (N.kind == Device)
    return N.device == Full ? -ENOSPC : int64_t(Bytes.size());
  if (N.isFixed)
    return -EBADF; // cannot happen: embedded files never open for writing
  uint64_t Pos = At ? *At : (D->flags & oflag::Append) ? N.size() : D->pos;
  if (Bytes.empty())
    return 0;
  if (Pos > (uint64_t(1) << 62))
    return -EFBIG;
  uint64_t End = Pos + Bytes.size(), Fit = End, Old = N.size();
  if (End > Old && !resize(N, End)) {
    // As much as the cap leaves room for; nothing at all: a full file system.
    Fit = Old;
    for (uint64_t Step = (End - Old) / 2; Step >= 4096 && Fit < End; Step /= 2)
      if (resize(N, Fit + Step))
        Fit += Step;
    if (Fit <= Pos) {
      resize(N, Old);
      return -ENOSPC;
    }
  }
  std::memcpy(N.data.data() + Pos, Bytes.data(), Fit - Pos);
  N.mtime = Now();
  if (!At)
    D->pos = Fit;
  return int64_t(Fit - Pos);
}

int64_t GuestFs::seek(int64_t Fd, int64_t Off, uint64_t Whence) {
  enum : uint64_t { Set, Cur, End, Data, Hole };
  Description *D = description(Fd);
  if (!D)
    return -EBADF;
  if (!D->node)
    return -ESPIPE;
  if (D->flags & oflag::Path)
    return -EBADF;
  if (D->node->kind == Device)
    return 0; // as Linux's null, zero and random devices answer
  int64_t Size = int64_t(D->node->kind == Folder ? D->node->children.size() + 2 : D->node->size());
  int64_t Base;
  switch (Whence) {
  case Set: Base = 0; break;
  case Cur: Base = int64_t(D->pos); break;
  case End: Base = Size; break;
  case Data:
  case Hole:
    if (D->node->kind == Folder)
      return -EINVAL;
    if (Off < 0 || Off >= Size)
      return -ENXIO;
    return int64_t(D->pos = uint64_t(Whence == Data ? Off : Size));
  default: return -EINVAL;
  }
  if ((Off > 0 && Base > INT64_MAX - Off) || Base + Off < 0)
    return -EINVAL;
  return int64_t(D->pos = uint64_t(Base + Off));
}

int64_t GuestFs::truncate(int64_t Fd, int64_t Len) {
  Description *D = description(Fd);
  if (!D || (D->flags & oflag::Path))
    return -EBADF;
  if (!D->node || D->node->kind != File || !D->canWrite() || Len < 0)
    return -EINVAL;
  if (!resize(*D->node, uint64_t(Len)))
    return -ENOSPC; // tmpfs answers a file past its size limit so
  D->node->mtime = Now();
  return 0;
}

int64_t GuestFs::truncate(int64_t DirFd, std::string_view Path, int64_t Len) {
  Lookup L;
  if (int64_t R = resolve(DirFd, Path, L))
    return R;
  if (!L.node)
    return -ENOENT;
  if (L.node->kind == Folder)
    return -EISDIR;
  if (L.node->kind != File || Len < 0)
    return -EINVAL;
  if (!permits(*L.node, MayWrite) || L.node->isFixed)
    return -EACCES;
  if (!resize(*L.node, uint64_t(Len)))
    return -ENOSPC;
  L.node->mtime = Now();
  return 0;
}

int64_t GuestFs::mapSource(int64_t Fd, std::span<const uint8_t> &Bytes) const {
  const Description *D = description(Fd);
  if (!D || (D->flags & oflag::Path))
    return -EBADF;
  if (!D->node || D->node->kind != File)
    return -ENODEV;
  if (!D->canRead())
    return -EACCES;
  Bytes = D->node->bytes();
  return 0;
}

int64_t GuestFs::readDir(int64_t Fd, const std::function<bool(const DirEntry &, uint64_t)> &Emit) {
  Description *D = description(Fd);
  if (!D || (D->flags & oflag::Path))
    return -EBADF;
  if (!D->node || D->node->kind != Folder)
    return -ENOTDIR;
  Node &N = *D->node;
  if (N.removed())
    return 0; // Linux lists nothing
  auto TypeOf = [](const Node &C) { return uint8_t(C.kind == Folder ? 4 : C.kind == Device ? 2 : 8); };
  int64_t Emitted = 0;
  uint64_t Index = 0;
  auto Offer = [&](const DirEntry &E) {
    if (Index++ < D->pos)
      return true;
    if (!Emit(E, Index))
      return false;
    D->pos = Index, ++Emitted;
    return true;
  };
  if (!Offer({N.ino, 4, "."}) || !Offer({N.parent.lock()->ino, 4, ".."}))
    return Emitted;
  for (auto &[Name, C] : N.children)
    if (!Offer({C->ino, TypeOf(*C), Name}))
      break;
  return Emitted;
}

// ---- paths ----------------------------------------------------------------

GuestFs::Stat GuestFs::statOf(const Node &N) const {
  Stat S;
  S.ino = N.ino, S.uid = S.gid = N.uid, S.mtimeNs = N.mtime, S.dev = 0x16; // one device for the whole tree
  switch (N.kind) {
  case Folder: {
    S.mode = IfDir | N.mode, S.size = 4096 /* what Linux shows for a small folder on ext4 */, S.nlink = 2;
    for (auto &[Name, C] : N.children)
      S.nlink += C->kind == Folder;
    break;
  }
  case Device: {
    static const uint64_t Minor[] = {3, 5, 7, 9};
    S.mode = IfChr | N.mode, S.rdev = 1 << 8 | Minor[N.device], S.dev = 5;
    break;
  }
  default: S.mode = IfReg | N.mode, S.size = N.size(), S.nlink = N.links;
  }
  return S;
}

int64_t GuestFs::stat(int64_t Fd, Stat &S) const {
  const Description *D = description(Fd);
  if (!D)
    return -EBADF;
  if (!D->node) { // a stream: a pipe, the process's own
    S = Stat{};
    S.mode = IfFifo | 0600, S.uid = S.gid = Uid, S.ino = 1000 + uint64_t(D->stream), S.dev = 0xc;
    return 0;
  }
  S = statOf(*D->node);
  return 0;
}

int64_t GuestFs::stat(int64_t DirFd, std::string_view Path, bool EmptyPath, Stat &S) const {
  if (Path.empty() && EmptyPath)
    return DirFd == AtFdCwd ? (S = statOf(*Cwd), 0) : stat(DirFd, S);
  Lookup L;
  if (int64_t R = resolve(DirFd, Path, L))
    return R;
  if (!L.node)
    return -ENOENT;
  S = statOf(*L.node);
  return 0;
}

int64_t GuestFs::access(int64_t DirFd, std::string_view Path, uint32_t Mode) const {
  if (Mode & ~7u)
    return -EINVAL;
  Lookup L;
  if (int64_t R = resolve(DirFd, Path, L))
    return R;
  if (!L.node)
    return -ENOENT;
  if ((Mode & MayWrite) && L.node->isFixed)
    return -EACCES;
  return permits(*L.node, Mode) ? 0 : -EACCES;
}

int64_t GuestFs::mkdir(int64_t DirFd, std::string_view Path, uint32_t Mode) {
  Lookup L;
  if (int64_t R = resolve(DirFd, Path, L))
    return R;
  if (L.node)
    return -EEXIST;
  if (!permits(*L.parent, MayWrite | MaySearch))
    return -EACCES;
  if (L.parent->removed())
    return -ENOENT;
  auto N = makeNode(Folder, Mode & 07777 & ~Mask, Uid);
  if (!N)
    return -ENOSPC;
  N->parent = L.parent, N->links = 1;
  L.parent->children[L.name] = N;
  L.parent->mtime = Now();
  return 0;
}

int64_t GuestFs::unlink(int64_t DirFd, std::string_view Path, bool Dir) {
  Lookup L;
  if (int64_t R = resolve(DirFd, Path, L))
    return R;
  if (!L.node)
    return -ENOENT;
  if (!L.parent) // "/", "." or ".."
    return !Dir ? -EISDIR : L.node == Root ? -EBUSY : Path.ends_with("..") ? -ENOTEMPTY : -EINVAL;
  if (Dir && L.node->kind != Folder)
    return -ENOTDIR;
  if (!Dir && L.node->kind == Folder)
    return -EISDIR;
  if (!permits(*L.parent, MayWrite | MaySearch))
    return -EACCES;
  if ((L.parent->mode & Sticky) && L.node->uid != Uid && L.parent->uid != Uid)
    return -EPERM;
  if (Dir && !L.node->children.empty())
    return -ENOTEMPTY;
  if (Dir)
    L.node->parent.reset(); // a working directory stays, removed: getcwd says so
  L.node->links = 0;
  L.parent->children.erase(L.name);
  L.parent->mtime = Now();
  return 0;
}

int64_t GuestFs::rename(int64_t OldDir, std::string_view Old, int64_t NewDir, std::string_view New, uint32_t Flags) {
  constexpr uint32_t NoReplace = 1;
  if (Flags & ~NoReplace)
    return -EINVAL; // RENAME_EXCHANGE and RENAME_WHITEOUT are not supported
  Lookup From, To;
  if (int64_t R = resolve(OldDir, Old, From))
    return R;
  if (int64_t R = resolve(NewDir, New, To))
    return R;
  if (!From.node)
    return -ENOENT;
  if (!From.parent || (!To.parent && To.node))
    return -EBUSY; // "/", "." or ".."
  if (!To.parent)
    return -ENOENT;
  if ((From.trailingSlash || To.trailingSlash) && From.node->kind != Folder)
    return -ENOTDIR;
  if (!permits(*From.parent, MayWrite | MaySearch) || !permits(*To.parent, MayWrite | MaySearch))
    return -EACCES;
  for (auto *P : {&From, &To})
    if (P->node && (P->parent->mode & Sticky) && P->node->uid != Uid && P->parent->uid != Uid)
      return -EPERM;
  if (To.node == From.node)
    return 0;
  if (To.node && (Flags & NoReplace))
    return -EEXIST;
  if (From.node->kind == Folder) {
    for (auto A = To.parent; A && A != Root; A = A->parent.lock())
      if (A == From.node)
        return -EINVAL; // into itself
    if (To.node && To.node->kind != Folder)
      return -ENOTDIR;
    if (To.node && !To.node->children.empty())
      return -ENOTEMPTY;
  } else if (To.node && To.node->kind == Folder) {
    return -EISDIR;
  }
  if (To.parent->removed())
    return -ENOENT;
  if (To.node) {
    To.node->links = 0;
    if (To.node->kind == Folder)
      To.node->parent.reset();
  }
  std::shared_ptr<Node> N = From.node;
  From.parent->children.erase(From.name);
  To.parent->children[To.name] = N;
  if (N->kind == Folder)
    N->parent = To.parent;
  From.parent->mtime = To.parent->mtime = Now();
  return 0;
}

int64_t GuestFs::chdir(int64_t DirFd, std::string_view Path) {
  Lookup L;
  if (int64_t R = resolve(DirFd, Path, L, /*EmptyPath=*/Path.empty() && DirFd != AtFdCwd))
    return R;
  if (!L.node)
    return -ENOENT;
  if (L.node->kind != Folder)
    return -ENOTDIR;
  if (!permits(*L.node, MaySearch))
    return -EACCES;
  Cwd = L.node;
  return 0;
}

std::string GuestFs::cwd() const {
  std::vector<const std::string *> Names; // from the working directory up
  bool Removed = false;
  for (auto N = Cwd; N != Root && !Removed;) {
    auto P = N->parent.lock();
    Removed = !P;
    for (auto &[Name, C] : P ? P->children : N->children)
      if (P && C == N)
        Names.push_back(&Name);
    N = P;
  }
  std::string Path = Removed ? "(unreachable)" : "";
  for (auto It = Names.rbegin(); It != Names.rend(); ++It)
    Path += "/" + **It;
  return Names.empty() ? Path + "/" : Path;
}

uint32_t GuestFs::umask(uint32_t New) { return std::exchange(Mask, New & 0777); }

} // namespace linklab::emu
