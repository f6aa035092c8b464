// The thin binding: request text in, answer text out, through two C functions and buffers in
// the module's memory that commlab.js reads and writes (no embind: its string conversions copied
// each text twice, allocated twice and took about a fifth of a transfer request's time, and
// its code and glue added to the download). Every C++ exception is caught inside
// commlab::evaluate, so none crosses into JS (an uncaught throw would abort the module).
#include <emscripten/emscripten.h>

#include <cstddef>
#include <string>

#include "api/api.hpp"

namespace {
std::string request_text;  // reused: grows to the longest request seen
std::string answer_text;
}  // namespace

extern "C" {

/// A buffer of `bytes` for the next request's UTF-8 text; its address.
EMSCRIPTEN_KEEPALIVE char* commlab_request_buffer(size_t bytes) {
  request_text.resize(bytes);
  return request_text.data();
}

/// Answers the request of `bytes` bytes written into the buffer; the answer's address (its
/// length: commlab_answer_bytes()). The answer stays valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* commlab_evaluate(size_t bytes) {
  request_text.resize(bytes);
  try {
    answer_text = commlab::evaluate(request_text);
  } catch (...) {  // evaluate() catches everything itself; this is the last line of defence
    answer_text = R"({"error":{"code":"internal","message":"internal error: the engine failed on this request"}})";
  }
  return answer_text.data();
}

EMSCRIPTEN_KEEPALIVE size_t commlab_answer_bytes() { return answer_text.size(); }

}  // extern "C"
