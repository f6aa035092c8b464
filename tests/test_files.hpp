// A file of the source tree read whole, for the tests that read documents, fixtures and the schema.
#pragma once
#include <fstream>
#include <sstream>
#include <string>

namespace commlab_test {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace commlab_test
