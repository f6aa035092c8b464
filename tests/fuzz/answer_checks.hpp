// The API's promises about one answer (README "Errors"), shared by the fuzz targets: the answer
// is a JSON object; an error carries a documented code (never `internal`) and a message, at most
// 300 characters for invalid_exercise and 4 KB for the whole answer otherwise.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "api/api.hpp"

namespace commlab_fuzz {

using json = nlohmann::json;

[[noreturn]] inline void fail(const char* target, const std::string& what, const std::string& request,
                              const std::string& answer) {
  std::fprintf(stderr, "%s: %s\n  request: %.300s\n  answer: %.600s\n", target, what.c_str(), request.c_str(),
               answer.c_str());
  std::abort();
}

inline bool documented(const std::string& code) {
  for (const std::string& c : commlab::error_codes())
    if (c == code) return true;
  return false;
}

/// Characters (UTF-8 code points) of a text: README counts a message's length in characters.
inline size_t characters(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

/// The answer parsed; aborts with the request and the answer when it breaks a promise.
inline json checked_answer(const char* target, const std::string& request, const std::string& answer) {
  json out;
  try {
    out = json::parse(answer);
  } catch (const std::exception&) {
    fail(target, "the answer is not JSON", request, answer);
  }
  if (!out.is_object()) fail(target, "the answer is not an object", request, answer);
  if (out.contains("error")) {
    const json& e = out["error"];
    if (!e.is_object() || !e.contains("code") || !e["code"].is_string() || !e.contains("message") ||
        !e["message"].is_string())
      fail(target, "an error without code and message", request, answer);
    const std::string code = e["code"].get<std::string>();
    if (!documented(code)) fail(target, "an undocumented error code", request, answer);
    if (code == "internal") fail(target, "an internal error", request, answer);
    if (answer.size() > 4096) fail(target, "an error message over 4 KB", request, answer);
    if (code == "invalid_exercise" && characters(e["message"].get<std::string>()) > 300)
      fail(target, "an invalid_exercise message over 300 characters", request, answer);
  }
  return out;
}

}  // namespace commlab_fuzz
