#include "base/concat.hpp"

#include <stdexcept>

#include "base/error.hpp"

namespace commlab {

std::string concat(std::initializer_list<std::string_view> pieces) {
  size_t n = 0;
  for (std::string_view p : pieces) n += p.size();
  std::string s;
  s.reserve(n);
  for (std::string_view p : pieces) s.append(p.data(), p.size());
  return s;
}

COMMLAB_RARE void reject(std::initializer_list<std::string_view> pieces) {
  throw std::invalid_argument(concat(pieces));
}

COMMLAB_RARE void refuse(const char* code, std::initializer_list<std::string_view> pieces) {
  throw RequestError(code, concat(pieces));
}

std::string substitute(std::string_view text, std::initializer_list<Slot> slots) {
  std::string s;
  s.reserve(text.size() + 32);
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find('{', i), close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    const std::string_view name = text.substr(open + 1, close - open - 1);
    s.append(text.data() + i, open - i);
    const Slot* slot = nullptr;
    for (const Slot& x : slots)
      if (x.name == name) slot = &x;
    if (slot)
      s.append(slot->value.data(), slot->value.size());
    else  // not a slot: kept as written
      s.append(text.data() + open, close + 1 - open);
    i = close + 1;
  }
  s.append(text.data() + i, text.size() - i);
  return s;
}

}  // namespace commlab
