// The CheckEnv of a real link: symbols, GOT entries, stubs, sections and
// relocated bytes as LinkInfoRecorder kept them (record contents must be on).
#pragma once

#include "check/check.h"
#include "session/link_info.h"
#include "target/target.h"

#include <functional>
#include <optional>

namespace linklab::check {

class LinkInfoCheckEnv : public CheckEnv {
public:
  // Fallback resolves names no linked object defines (absolutes given with
  // -abs, process symbols): Session::addressOf.
  using Fallback = std::function<std::optional<Addr>(std::string_view)>;
  LinkInfoCheckEnv(const LinkInfoRecorder &Info, Arch A, Fallback F = nullptr)
      : Info(Info), A(A), Resolve(std::move(F)) {}

  Arch arch() const override { return A; }
  // *{N}addr reads in the target's data byte order, as RuntimeDyldChecker does.
  bool isLittleEndian() const override { return A == Arch::Unknown || !archRow(A).bigEndian; }
  Expected<uint64_t> symbolAddress(std::string_view Name) const override;
  bool isThumbSymbol(std::string_view Name) const override;
  Expected<uint64_t> gotEntryAddress(std::string_view File, std::string_view Target) const override;
  Expected<uint64_t> stubAddress(std::string_view File, std::string_view Target, std::string_view Kind) const override;
  Expected<uint64_t> sectionAddress(std::string_view File, std::string_view Section) const override;
  Expected<std::vector<uint8_t>> readBytes(uint64_t Addr, size_t Size) const override;

private:
  Expected<const ObjectLinkInfo *> object(std::string_view File) const;
  Expected<uint64_t> entry(std::string_view File, std::string_view Target,
                           std::map<std::string, Addr> ObjectLinkInfo::*Table, const char *What) const;
  const LinkInfoRecorder &Info;
  Arch A;
  Fallback Resolve;
};

} // namespace linklab::check
