#include "base/concat.hpp"

namespace commlab {

std::string concat(std::initializer_list<std::string_view> pieces) {
  size_t n = 0;
  for (std::string_view p : pieces) n += p.size();
  std::string s;
  s.reserve(n);
  for (std::string_view p : pieces) s.append(p.data(), p.size());
  return s;
}

}  // namespace commlab
