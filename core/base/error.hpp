// Errors are values at the request boundary: the engine throws RequestError
// inside, and evaluate() turns it into {"error":{"code","message"}}.
#pragma once
#include <stdexcept>
#include <string>

// A rarely run function of a file the wasm build compiles for speed (its -O2 list,
// CMakeLists.txt): compiled for size there, and not inlined into its callers. Natively nothing.
#if defined(__EMSCRIPTEN__)
#define COMMLAB_RARE __attribute__((cold, minsize, noinline))
#else
#define COMMLAB_RARE
#endif

namespace commlab {

/// A request the engine cannot answer; `code` is machine-readable, `what()` names
/// the field, the value and what is allowed.
class RequestError : public std::runtime_error {
 public:
  RequestError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

}  // namespace commlab
