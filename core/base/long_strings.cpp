// parse_request: a request text whose top-level members hold long strings (a 4 MB nccl-tests log
// for `fit`) parsed without running nlohmann's lexer over them. Its lexer takes a string a byte
// at a time into a token buffer (25 ms natively for 4 MB, most of `fit`'s time); here a long
// string is found with memchr, checked and unescaped in runs, cut out of the text, and put back
// into the parsed request. Anything this does not handle exactly as nlohmann would (a \u escape,
// a control character, bytes that are not UTF-8, a key written twice, text that is not one
// object) goes to parse_json whole, so the values and the errors are nlohmann's own.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/request.hpp"

namespace commlab {

namespace {

constexpr size_t kLongString = 1 << 16;

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The closing quote of the string opening at `open`: a '"' after an even number of '\'.
bool string_end(const std::string& t, size_t open, size_t* close) {
  size_t from = open + 1;
  while (from < t.size()) {
    const void* q = std::memchr(t.data() + from, '"', t.size() - from);
    if (!q) return false;
    const size_t at = static_cast<size_t>(static_cast<const char*>(q) - t.data());
    size_t slashes = 0;
    while (at - slashes > open + 1 && t[at - slashes - 1] == '\\') ++slashes;
    if (slashes % 2 == 0) {
      *close = at;
      return true;
    }
    from = at + 1;
  }
  return false;
}

// Whether [p, end) is text a JSON string may hold as it is: no control character, UTF-8 as
// nlohmann's lexer accepts it (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
bool plain_run(const unsigned char* p, const unsigned char* end) {
  while (p < end) {
    // Eight ASCII bytes at a time, none below 0x20.
    if (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      const uint64_t high = 0x8080808080808080ULL;
      if ((w & high) == 0 && (((w - 0x2020202020202020ULL) & ~w & high) == 0)) {
        p += 8;
        continue;
      }
    }
    const unsigned char c = *p;
    if (c < 0x20) return false;
    if (c < 0x80) {
      ++p;
      continue;
    }
    auto cont = [&](ptrdiff_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
      return end - p > k && p[k] >= lo && p[k] <= hi;
    };
    if (c >= 0xC2 && c <= 0xDF) {
      if (!cont(1)) return false;
      p += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      const bool second = c == 0xE0 ? cont(1, 0xA0, 0xBF) : c == 0xED ? cont(1, 0x80, 0x9F) : cont(1);
      if (!second || !cont(2)) return false;
      p += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      const bool second = c == 0xF0 ? cont(1, 0x90, 0xBF) : c == 0xF4 ? cont(1, 0x80, 0x8F) : cont(1);
      if (!second || !cont(2) || !cont(3)) return false;
      p += 4;
    } else {
      return false;
    }
  }
  return true;
}

// The string between the quotes at `open` and `close`, unescaped; false for what only
// nlohmann should judge (\u escapes, bad escapes, control characters, bad UTF-8).
bool unescape(const std::string& t, size_t open, size_t close, std::string* out) {
  out->clear();
  out->reserve(close - open - 1);
  const unsigned char* base = reinterpret_cast<const unsigned char*>(t.data());
  size_t at = open + 1;
  while (at < close) {
    const void* b = std::memchr(t.data() + at, '\\', close - at);
    const size_t run_end = b ? static_cast<size_t>(static_cast<const char*>(b) - t.data()) : close;
    if (!plain_run(base + at, base + run_end)) return false;
    out->append(t, at, run_end - at);
    if (run_end == close) break;
    const char e = t[run_end + 1];  // run_end + 1 < close: the closing quote is not escaped
    const char* from = "\"\\/bfnrt";
    const char* to = "\"\\/\b\f\n\r\t";
    const char* hit = std::strchr(from, e);
    if (!hit || e == '\0') return false;
    out->push_back(to[hit - from]);
    at = run_end + 2;
  }
  return true;
}

struct LongMember {
  std::string key;
  std::string value;
};

// Cuts every long string that is a member of the top-level object out of `t` ("" in its place);
// false when the text is not plainly one object, so the caller parses it whole.
bool cut_long_members(const std::string& t, std::string* shortened, std::vector<LongMember>* members) {
  enum class Want { key, colon, value, comma };
  Want want = Want::key;
  int depth = 0;
  bool opened = false;
  std::vector<std::pair<size_t, size_t>> keys;  // every top-level key, as raw text
  std::pair<size_t, size_t> key{0, 0};
  size_t copied = 0;
  for (size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (is_ws(c)) {
      ++i;
      continue;
    }
    if (depth == 0) {
      if (c != '{' || opened) return false;  // one object, nothing after it
      opened = true;
      depth = 1;
      want = Want::key;
      ++i;
      continue;
    }
    if (c == '"') {
      size_t close;
      if (!string_end(t, i, &close)) return false;
      if (depth == 1) {
        if (want == Want::key) {
          key = {i + 1, close};
          keys.push_back(key);
          want = Want::colon;
        } else if (want == Want::value) {
          if (close - i - 1 >= kLongString) {
            if (std::memchr(t.data() + key.first, '\\', key.second - key.first)) return false;
            LongMember m{t.substr(key.first, key.second - key.first), std::string()};
            if (!unescape(t, i, close, &m.value)) return false;
            shortened->append(t, copied, i - copied);
            shortened->append("\"\"");
            copied = close + 1;
            members->push_back(std::move(m));
          }
          want = Want::comma;
        } else {
          return false;
        }
      }
      i = close + 1;
      continue;
    }
    if (depth == 1) {
      if (c == ':') {
        if (want != Want::colon) return false;
        want = Want::value;
      } else if (c == ',') {
        if (want != Want::comma) return false;
        want = Want::key;
      } else if (c == '}') {
        if (want != Want::comma && want != Want::key) return false;
        depth = 0;
      } else if (c == '{' || c == '[') {
        if (want != Want::value) return false;
        want = Want::comma;
        depth = 2;
      } else {  // a number, true, false or null: nlohmann reads it
        if (want != Want::value) return false;
        want = Want::comma;
        while (i + 1 < t.size() && !is_ws(t[i + 1]) && t[i + 1] != ',' && t[i + 1] != '}') ++i;
      }
      ++i;
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') --depth;
    ++i;
  }
  if (depth != 0 || !opened || members->empty()) return false;
  shortened->append(t, copied, std::string::npos);
  // A key written twice: nlohmann keeps the last; let it decide.
  for (const LongMember& m : *members) {
    int seen = 0;
    for (const auto& k : keys)
      seen += k.second - k.first == m.key.size() && t.compare(k.first, m.key.size(), m.key) == 0;
    if (seen != 1) return false;
  }
  return true;
}

}  // namespace

json parse_request(const std::string& text) {
  if (text.size() < kLongString) return parse_json(text);
  std::string shortened;
  std::vector<LongMember> members;
  if (!cut_long_members(text, &shortened, &members)) return parse_json(text);
  json request;
  try {
    request = parse_json(shortened);
  } catch (const json::exception&) {
    return parse_json(text);  // the whole text's own error
  }
  if (!request.is_object()) return parse_json(text);
  for (LongMember& m : members) {
    const auto it = request.find(m.key);
    if (it == request.end() || !it->is_string() || !it->get_ref<const std::string&>().empty()) return parse_json(text);
    *it = std::move(m.value);
  }
  return request;
}

}  // namespace commlab
