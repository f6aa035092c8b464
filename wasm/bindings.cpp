// The thin binding: one string-in, string-out function. Every C++ exception is caught inside
// commlab::evaluate, so none crosses into JS (an uncaught throw would abort the module).
#include <emscripten/bind.h>

#include <string>

#include "api/api.hpp"

namespace {
std::string evaluate_text(const std::string& request) {
  try {
    return commlab::evaluate(request);
  } catch (...) {  // evaluate() catches everything itself; this is the last line of defence
    return R"({"error":{"code":"internal","message":"internal error: the engine failed on this request"}})";
  }
}
}  // namespace

EMSCRIPTEN_BINDINGS(commlab) { emscripten::function("evaluate", &evaluate_text); }
