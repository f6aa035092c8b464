#include "bounded_read.hpp"

#include <filesystem>
#include <fstream>

namespace commlab {

namespace {

std::string in_units(std::size_t bytes) {
  if (bytes >= 1000000 && bytes % 1000000 == 0) return std::to_string(bytes / 1000000) + " MB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KB";
  return std::to_string(bytes) + " B";
}

}  // namespace

bool read_bounded(std::istream& stream, const std::string& name, const ReadLimit& limit, std::string* text,
                  std::string* error) {
  text->clear();
  constexpr std::size_t kChunkBytes = 64 * 1024;
  char chunk[kChunkBytes];
  while (stream) {
    stream.read(chunk, kChunkBytes);
    const std::size_t got = static_cast<std::size_t>(stream.gcount());
    if (text->size() + got > limit.max_bytes) {
      text->clear();
      *error = name + ": more than " + std::to_string(limit.max_bytes) + " bytes (" + in_units(limit.max_bytes) +
               "), not read; allowed: " + limit.what + " of at most " + in_units(limit.max_bytes);
      return false;
    }
    text->append(chunk, got);
  }
  if (stream.bad()) {
    *error = name + ": cannot be read";
    return false;
  }
  return true;
}

bool read_file_bounded(const std::string& path, const ReadLimit& limit, std::string* text, std::string* error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *error = path + ": is a directory; allowed: " + limit.what + " (a file)";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + (std::filesystem::exists(path, ec) ? ": cannot be read" : ": no such file");
    return false;
  }
  return read_bounded(in, path, limit, text, error);
}

bool read_line_bounded(std::istream& stream, std::size_t max_bytes, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  std::streambuf* buf = stream.rdbuf();
  bool any = false;
  for (;;) {
    const int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      stream.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    if (line->size() == max_bytes) {
      *too_long = true;
      std::string().swap(*line);
      return true;
    }
    line->push_back(static_cast<char>(c));
  }
}

}  // namespace commlab
