// The C binding the embind one replaced (wasm/bindings.cpp), kept for ./lab bench only: the same
// requests through both modules in one run give the embind binding's cost per request
// (tests/bench/binding.mjs). Request text in a buffer of the module's memory, the answer's
// address and length read from memory: no conversion but UTF-8 encoding and decoding.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "api/api.hpp"

namespace {
std::vector<char> request_bytes;  // grows to the longest request seen
std::string request_text;         // the same, kept: no allocation a request
std::string answer_text;
// Where commlab.js finds the last answer, read from memory: no call per field.
struct AnswerView {
  uint32_t address;
  uint32_t bytes;
} answer_view;
}  // namespace

extern "C" {

/// Room for a request of up to `bytes` bytes of UTF-8; its address, valid until the next call
/// of this function.
EMSCRIPTEN_KEEPALIVE char* commlab_request_buffer(size_t bytes) {
  request_bytes.resize(bytes);
  return request_bytes.data();
}

/// The address of the last answer's {address, bytes}, fixed for the module's life.
EMSCRIPTEN_KEEPALIVE const AnswerView* commlab_answer() { return &answer_view; }

/// Answers the request of `bytes` bytes written into the buffer; the answer stays where
/// commlab_answer() says until the next call.
EMSCRIPTEN_KEEPALIVE void commlab_evaluate(size_t bytes) {
  try {
    request_text.assign(request_bytes.data(), bytes);
    answer_text = commlab::evaluate(request_text);
  } catch (...) {  // evaluate() catches everything itself; this is the last line of defence
    answer_text = R"({"error":{"code":"internal","message":"internal error: the engine failed on this request"}})";
  }
  answer_view = {static_cast<uint32_t>(reinterpret_cast<uintptr_t>(answer_text.data())),
                 static_cast<uint32_t>(answer_text.size())};
}

}  // extern "C"
