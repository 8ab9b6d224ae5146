// The executor protocol's decoder, both directions: the bytes are a stream
// of frames, fed to a FrameReader in pieces (the first byte sets the piece
// size, as reads from a pipe split a stream anywhere). Every frame that
// decodes must encode back to a frame that decodes to the same message.
#include "fuzz_support.h"

#include "protocol/protocol.h"

using namespace linklab;
using namespace linklab::executor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  size_t Piece = 1 + Data[0] % 64;
  std::span<const uint8_t> Stream(Data + 1, Size - 1);
  FrameReader R;
  for (size_t At = 0; At < Stream.size(); At += Piece) {
    R.feed(Stream.subspan(At, std::min(Piece, Stream.size() - At)));
    for (;;) {
      auto F = R.next();
      if (!F) {
        FUZZ_EXPECT(!F.takeError().message().empty(), "a decode error without a message");
        return 0;
      }
      if (!*F)
        break;
      std::vector<uint8_t> Bytes = encode((*F)->seq, (*F)->message);
      FrameReader Again;
      Again.feed(Bytes);
      auto G = Again.next();
      FUZZ_EXPECT(G && *G && (*G)->seq == (*F)->seq && (*G)->message == (*F)->message,
                  "%s does not survive encode/decode", messageName((*F)->message));
      FUZZ_EXPECT(Again.buffered() == 0, "encode wrote %zu bytes past the frame", Again.buffered());
    }
  }
  return 0;
}
