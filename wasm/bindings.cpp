// The binding: one EMSCRIPTEN_BINDINGS block that translates types and nothing else (wasm/README.md
// "The binding"). Request text in, answer text out, as the native door; the version as a value.
// Every C++ exception is caught inside commlab::evaluate; the catch here is the last line of
// defence, since an exception crossing into JS would abort the module.
#include <emscripten/bind.h>

#include <string>

#include "api/api.hpp"

namespace {

std::string evaluate(const std::string& request) {
  try {
    return commlab::evaluate(request);
  } catch (...) {
    return R"({"error":{"code":"internal","message":"internal error: the engine failed on this request"}})";
  }
}

std::string ops() { return evaluate(R"({"op":"ops"})"); }

// Which engine this is: the project's version and the module (the lean one answers the
// exercises' and Explore's ops, the full one every op: wasm/CMakeLists.txt).
struct Version {
  std::string engine;
  std::string module;
};

Version version() {
#ifdef COMMLAB_LEAN
  return {COMMLAB_VERSION, "lean"};
#else
  return {COMMLAB_VERSION, "full"};
#endif
}

}  // namespace

EMSCRIPTEN_BINDINGS(commlab) {
  emscripten::value_object<Version>("Version").field("engine", &Version::engine).field("module", &Version::module);
  emscripten::function("evaluate", &evaluate);
  emscripten::function("ops", &ops);
  emscripten::function("version", &version);
}
