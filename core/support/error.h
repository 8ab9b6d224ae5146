// Errors as values. core/ never throws and never exits: anything a malformed
// input can reach returns an Error (or an Expected<T> holding one).
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace linklab {

// Success is a null pointer, so passing an Error around costs one word.
// As LLVM's Error: with assertions on (debug and sanitizer builds) every
// Error, success included, must be checked (tested as a bool, or its message
// read) before it is destroyed or overwritten; a dropped one reports where it
// came from and aborts, so an ignored failure cannot pass silently. Moving
// hands the obligation to the destination. consumeError() drops one on purpose.
class [[nodiscard]] Error {
public:
  Error() = default;
  static Error success() { return Error(); }
  explicit Error(std::string message) : Message(std::make_unique<std::string>(std::move(message))) {}
  Error(Error &&Other) noexcept : Message(std::move(Other.Message)) { Other.markChecked(); }
  Error &operator=(Error &&Other) noexcept {
    assertChecked();
    Message = std::move(Other.Message);
    markUnchecked();
    Other.markChecked();
    return *this;
  }
  ~Error() { assertChecked(); }

  explicit operator bool() const {
    markChecked();
    return Message != nullptr;
  }
  const std::string &message() const {
    static const std::string None;
    markChecked();
    return Message ? *Message : None;
  }
  // Adds context in front: "ctx: original".
  Error withContext(std::string_view Ctx) && {
    if (Message)
      *Message = std::string(Ctx) + ": " + *Message;
    return std::move(*this);
  }

private:
  template <typename T> friend class Expected;
  bool isFailure() const { return Message != nullptr; }
  // Always a member, so the class's layout is the same with and without
  // NDEBUG (code built either way links against one library); only the
  // check is left out of NDEBUG builds.
  mutable bool Checked = false;
  void markChecked() const { Checked = true; }
  void markUnchecked() { Checked = false; }
  void assertChecked() const {
#ifndef NDEBUG
    if (!Checked)
      reportUnchecked(Message.get());
#endif
  }
  [[noreturn]] static void reportUnchecked(const std::string *Message);
  std::unique_ptr<std::string> Message;
};

inline Error makeError(std::string Message) { return Error(std::move(Message)); }
// Drops an error on purpose (a fallback follows, or the failure is expected).
inline void consumeError(Error E) { (void)bool(E); }

template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T Value) : Storage(std::move(Value)) {}
  Expected(Error E) : Storage(std::move(E)) { assert(std::get<Error>(Storage).isFailure() && "Expected from success"); }

  explicit operator bool() const { return Storage.index() == 0; }
  T &operator*() { return std::get<T>(Storage); }
  const T &operator*() const { return std::get<T>(Storage); }
  T *operator->() { return &std::get<T>(Storage); }
  const T *operator->() const { return &std::get<T>(Storage); }
  T &get() { return std::get<T>(Storage); }
  // A held failure must be taken (and then checked) before the Expected goes.
  Error takeError() {
    if (Storage.index() == 0)
      return Error::success();
    return std::move(std::get<Error>(Storage));
  }

private:
  std::variant<T, Error> Storage;
};

// Hex formatting used by every diagnostic ("0x1f").
std::string hex(uint64_t V);
// A signed value in the same form, "-0x1f" when negative (INT64_MIN included).
std::string signedHex(int64_t V);
// printf-style formatting into a std::string (std::format is missing in emcc 3.1.6).
std::string formatv(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace linklab
