// What fuzz/make-seeds.py needs from the core: `seed_tool --triples` prints
// the triple of every row of the target registry (the object seeds are
// compiled for each, so a format or arch that gains a row gains seeds), and
// `seed_tool PROTOCOL-DIR EXECUTOR-DIR` writes the protocol and executor
// fuzz targets' seeds: one client session
// per architecture (setup, reserve, finalize a function that returns, lookup,
// call, run, memory reads and writes, TLS, deallocate, hangup), as frames.
// The protocol target's copy starts with its piece-size byte.
// `seed_tool PROTOCOL-DIR EXECUTOR-DIR IMAGE-DIR` also writes a runtime
// image per architecture (program/runtime_image.h: one reservation, a
// symbol, an import, an entry fixup, TLS), as the runtime_image target
// reads it: an arch byte, then the file without its header.
#include "program/runtime_image.h"
#include "protocol/protocol.h"
#include "target/target.h"

#include <cstdio>
#include <string>

using namespace linklab::executor;

static bool write(const std::string &Path, const std::vector<uint8_t> &Bytes) {
  FILE *Out = std::fopen(Path.c_str(), "wb");
  if (!Out || std::fwrite(Bytes.data(), 1, Bytes.size(), Out) != Bytes.size() || std::fclose(Out) != 0) {
    std::perror(Path.c_str());
    return false;
  }
  return true;
}

int main(int Argc, char **Argv) {
  if (Argc == 2 && std::string(Argv[1]) == "--triples") {
    for (const linklab::TargetInfo *T : linklab::allTargets())
      std::printf("%s\n", linklab::targetTriple(*T).str.c_str());
    return 0;
  }
  if (Argc != 3 && Argc != 4) {
    std::fprintf(stderr, "usage: seed_tool --triples | seed_tool PROTOCOL-DIR EXECUTOR-DIR [IMAGE-DIR]\n");
    return 1;
  }
  if (Argc == 4) {
    const linklab::Arch Arches[] = {linklab::Arch::X86_64, linklab::Arch::AArch64, linklab::Arch::RISCV64,
                                    linklab::Arch::I386, linklab::Arch::Arm};
    for (uint8_t K = 0; K < std::size(Arches); ++K) {
      const linklab::ArchRow &Row = linklab::archRow(Arches[K]);
      linklab::exec::RuntimeImage I;
      I.key = "seed";
      I.reservations.push_back({0x10000000, 0x2000, 0x1000, linklab::MemProt(3), std::vector<uint8_t>(24, 1)});
      I.symbols.push_back({"puts", 0x10000010});
      I.imports.push_back("main");
      linklab::EdgeKind Pointer = Row.pointerSize == 8 ? Row.ehFrame.pointer64 : Row.ehFrame.pointer32;
      I.entryFixups.push_back({0x10000008, Pointer, 0, 0});
      I.tls = {{1, 2, 3}, 16, 8};
      I.ehFrames.push_back({0x10000000, 16});
      I.members.push_back("libc.a(puts.o)");
      std::vector<uint8_t> File = linklab::exec::serializeRuntimeImage(I);
      std::vector<uint8_t> Seed = {K};
      Seed.insert(Seed.end(), File.begin() + linklab::exec::RuntimeImageHeaderSize, File.end());
      if (!write(std::string(Argv[3]) + "/image-" + Row.name + ".bin", Seed))
        return 1;
    }
  }
  struct ArchSeed {
    const char *triple;
    std::vector<uint8_t> ret; // the arch's return instruction
  } Archs[] = {{"x86_64-unknown-linux-gnu", {0xc3}},
               {"aarch64-unknown-linux-gnu", {0xc0, 0x03, 0x5f, 0xd6}},
               {"riscv64-unknown-linux-gnu", {0x67, 0x80, 0x00, 0x00}}};
  const uint64_t Base = 0x10000000; // the first reservation (emulator/process.h layout)
  Limits L{1000, 100, 1 << 20};
  for (auto &A : Archs) {
    std::vector<Message> Session = {
        SetupMsg{ProtocolVersion, A.triple},
        ReserveMsg{0x2000, 0x1000},
        FinalizeMsg{{SegmentWrite{Base, 5, A.ret, 0x100}, SegmentWrite{Base + 0x1000, 3, {1, 2, 3, 4}, 0x10}}},
        LookupMsg{{"main", "malloc", "__linklab_exit"}},
        CallMsg{Base, {RegValue{0, {1, 0, 0, 0, 0, 0, 0, 0}}}, {0, 0, 0, 0, 0, 0, 0, 0}, {0}, L},
        RunMainMsg{Base, 0, {"prog", "a"}, {"HOME=/"}, L},
        ReadMemoryMsg{Base + 0x1000, 8},
        WriteMemoryMsg{Base + 0x1000, {9, 9}},
        SetupTLSMsg{{1, 2, 3, 4}, 64, 16},
        DeallocateMsg{{Base}},
    };
    std::vector<uint8_t> Bytes;
    uint32_t Seq = 1;
    auto Add = [&](uint32_t S, const Message &M) {
      auto F = encode(S, M);
      Bytes.insert(Bytes.end(), F.begin(), F.end());
    };
    for (auto &M : Session)
      Add(Seq++, M);
    // A debugged run (PROTOCOL.md, Debugging): its stops answered under its seq.
    Add(Seq, RunMainMsg{Base, 0, {"prog"}, {}, L, {}, 1, 50});
    Add(Seq, DebugResumeMsg{uint8_t(DebugAction::Read), {}, Base, 4});
    Add(Seq, DebugResumeMsg{uint8_t(DebugAction::StepOver), {Base}, 0, 0});
    Add(Seq++, DebugResumeMsg{uint8_t(DebugAction::Continue), {}, 0, 0});
    Add(Seq++, HangupMsg{});
    std::string Name = "/session-" + std::string(A.triple).substr(0, std::string(A.triple).find('-')) + ".bin";
    std::vector<uint8_t> Piece = {7};
    Piece.insert(Piece.end(), Bytes.begin(), Bytes.end());
    if (!write(Argv[1] + Name, Piece) || !write(Argv[2] + Name, Bytes))
      return 1;
  }
  return 0;
}
