// The executor protocol's encoder/decoder: round trips, and every way a
// frame can be wrong (truncated, oversized, unknown, trailing bytes, lying
// counts) ending in an error rather than a crash or a giant allocation.
#include "protocol/protocol.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace linklab;
using namespace linklab::executor;

namespace {

Frame decodeOne(const std::vector<uint8_t> &Bytes) {
  FrameReader R;
  R.feed(Bytes);
  auto F = R.next();
  EXPECT_TRUE(bool(F)) << F.takeError().message();
  EXPECT_TRUE(F && F->has_value());
  EXPECT_EQ(R.buffered(), 0u);
  return F && *F ? std::move(**F) : Frame{};
}

std::string errorOf(const std::vector<uint8_t> &Bytes) {
  FrameReader R;
  R.feed(Bytes);
  auto F = R.next();
  if (F)
    return "no error";
  return F.takeError().message();
}

void setSize(std::vector<uint8_t> &Frame, uint32_t Size) { std::memcpy(Frame.data(), &Size, 4); }

} // namespace

TEST(ExecutorProtocol, RoundTripCall) {
  CallMsg M;
  M.entry = 0x10001000;
  M.registers = {{5, {1, 2, 3, 4, 5, 6, 7, 8}}, {17, std::vector<uint8_t>(16, 0xab)}};
  M.stack = {9, 8, 7};
  M.results = {0, 17};
  M.limits = {1000, 250, 1 << 20};
  Frame F = decodeOne(encode(42, M));
  EXPECT_EQ(F.seq, 42u);
  auto *D = std::get_if<CallMsg>(&F.message);
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->entry, M.entry);
  ASSERT_EQ(D->registers.size(), 2u);
  EXPECT_EQ(D->registers[1].dwarf, 17);
  EXPECT_EQ(D->registers[1].value, M.registers[1].value);
  EXPECT_EQ(D->stack, M.stack);
  EXPECT_EQ(D->results, M.results);
  EXPECT_EQ(D->limits.wallMillis, 250u);
  EXPECT_EQ(D->limits.memoryBytes, 1u << 20);
}

TEST(ExecutorProtocol, RoundTripEveryKind) {
  // One of each, so a kind missing from the decoder's table shows up here.
  std::vector<Message> All = {
      SetupMsg{1, "riscv64-unknown-linux-gnu"},
      ReserveMsg{0x3000, 0x1000},
      FinalizeMsg{{{0x1000, ProtRead | ProtExec, {0xc3}, 15}}},
      DeallocateMsg{{1, 2}},
      LookupMsg{{"a", ""}},
      RunMainMsg{0x40, 1, {"prog", "x"}, {"A=b"}, {1, 2, 3}, {{"data/in.txt", {1, 2, 3}}}, 1, 250, {{0x1000, 0x40}}, 9},
      CallMsg{0x40, {{1, {2}}}, {3}, {4}, {5, 6, 7}},
      ReadMemoryMsg{1, 2},
      WriteMemoryMsg{3, {4}},
      WriteMsg{{{0x1000, {1, 2}, 30}, {0x2000, {}, 8}}},
      SetupTLSMsg{{1}, 8, 8},
      HangupMsg{},
      OkMsg{},
      FailureMsg{"bad"},
      SetupResultMsg{1, "t", 4096, {{"s", 9}}},
      AddressMsg{7},
      LookupResultMsg{{0, 5}},
      OutputMsg{2, {'h', 'i'}},
      RunResultMsg{5, 1, -3, 0x10, 0x20, 99, "m", {{0, {1}}}},
      MemoryMsg{{1, 2, 3}},
      TLSResultMsg{1, 2},
      InputMsg{{'a', '\n'}},
      InputRequestMsg{4096},
      DebugResumeMsg{3, {0x10, 0x20}, 0x30, 16},
      DebugStopMsg{1, 0x40, 1000, 5, 2, 0x50, {{"rip", {1, 2}}}, {0x60}, 1, 0x70, {9}, "why"},
      MapFileMsg{{{0x30000000, ProtRead | ProtExec, 0x1c, 0x2000, 0x1000}}}};
  ASSERT_EQ(All.size(), std::variant_size_v<Message>);
  for (const Message &M : All) {
    std::vector<uint8_t> Bytes = encode(7, M);
    Frame F = decodeOne(Bytes);
    EXPECT_EQ(F.message.index(), M.index()) << messageName(M);
    EXPECT_EQ(encode(7, F.message), Bytes) << messageName(M); // decode∘encode is the identity
    EXPECT_TRUE(F.message == M) << messageName(M);            // and no member is left off the wire
  }
}

TEST(ExecutorProtocol, SplitDelivery) {
  // Bytes arriving one at a time (a pipe, a WebSocket) still make whole frames.
  std::vector<uint8_t> Bytes = encode(1, LookupMsg{{"printf", "malloc"}});
  std::vector<uint8_t> Two = encode(2, HangupMsg{});
  Bytes.insert(Bytes.end(), Two.begin(), Two.end());
  FrameReader R;
  std::vector<uint32_t> Seqs;
  for (uint8_t B : Bytes) {
    R.feed({&B, 1});
    auto F = R.next();
    ASSERT_TRUE(bool(F));
    if (*F)
      Seqs.push_back((*F)->seq);
  }
  EXPECT_EQ(Seqs, (std::vector<uint32_t>{1, 2}));
}

TEST(ExecutorProtocol, TruncatedPayload) {
  std::vector<uint8_t> Bytes = encode(1, ReserveMsg{0x1000, 0x1000});
  Bytes.resize(Bytes.size() - 4); // the region byte and three of the alignment's
  setSize(Bytes, uint32_t(Bytes.size() - 4));
  EXPECT_EQ(errorOf(Bytes), "malformed reserve message: truncated integer at payload offset 8 (need 8 bytes, 5 left)");
}

TEST(ExecutorProtocol, IncompleteFrameWaits) {
  std::vector<uint8_t> Bytes = encode(1, ReserveMsg{0x1000, 0x1000});
  Bytes.pop_back();
  FrameReader R;
  R.feed(Bytes);
  auto F = R.next();
  ASSERT_TRUE(bool(F));
  EXPECT_FALSE(F->has_value());
}

TEST(ExecutorProtocol, Oversized) {
  std::vector<uint8_t> Bytes = encode(1, HangupMsg{});
  setSize(Bytes, MaxFrameSize + 1);
  EXPECT_EQ(errorOf(Bytes), "frame size 67108865 out of range [8, 67108864]");
}

TEST(ExecutorProtocol, UndersizedHeader) {
  std::vector<uint8_t> Bytes = {3, 0, 0, 0, 1, 2, 3};
  EXPECT_EQ(errorOf(Bytes), "frame size 3 out of range [8, 67108864]");
}

TEST(ExecutorProtocol, UnknownKindAndFlags) {
  std::vector<uint8_t> Bytes = encode(1, HangupMsg{});
  Bytes[4] = 0x7f;
  EXPECT_EQ(errorOf(Bytes), "unknown message kind 0x7f");
  Bytes = encode(1, HangupMsg{});
  Bytes[6] = 1;
  EXPECT_EQ(errorOf(Bytes), "message kind 0xb has reserved flags 0x1 set");
}

TEST(ExecutorProtocol, TrailingBytes) {
  std::vector<uint8_t> Bytes = encode(1, AddressMsg{5});
  Bytes.push_back(0);
  setSize(Bytes, uint32_t(Bytes.size() - 4));
  EXPECT_EQ(errorOf(Bytes), "malformed address message: 1 trailing bytes");
}

TEST(ExecutorProtocol, LyingListCount) {
  // A count of 2^32-1 strings (4 bytes each at least) in a 4-byte payload
  // must fail before allocating.
  std::vector<uint8_t> Bytes = encode(1, LookupMsg{});
  Bytes[12] = Bytes[13] = Bytes[14] = Bytes[15] = 0xff;
  EXPECT_EQ(errorOf(Bytes),
            "malformed lookup message: truncated list at payload offset 4 (need 17179869180 bytes, 0 left)");
}

TEST(ExecutorProtocol, ReaderStaysFailed) {
  std::vector<uint8_t> Bytes = {3, 0, 0, 0};
  FrameReader R;
  R.feed(Bytes);
  auto Bad = R.next();
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(Bad.takeError().message(), "frame size 3 out of range [8, 67108864]");
  std::vector<uint8_t> Good = encode(1, HangupMsg{});
  R.feed(Good);
  auto F = R.next();
  ASSERT_FALSE(bool(F));
  EXPECT_EQ(F.takeError().message(), "stream already failed");
}
