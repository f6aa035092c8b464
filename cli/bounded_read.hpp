// Every file and stream the native doors read, read through one reader that stops at a limit
// while reading: /dev/zero, a FIFO or a huge file costs at most the limit, never all memory.
#pragma once
#include <cstddef>
#include <istream>
#include <string>

#include "exercises/exercises.hpp"
#include "measured/nccl_log.hpp"

namespace commlab {

/// What a read is for: its limit and, for messages, what is allowed ("an exercise document").
struct ReadLimit {
  std::size_t max_bytes;
  const char* what;
};

/// The limits the CLI reads by: the engine's own, so a file it would refuse is never held whole.
constexpr ReadLimit kDocumentLimit{kMaxDocumentBytes, "an exercise document"};
constexpr ReadLimit kLogLimit{static_cast<std::size_t>(kMaxLogBytes), "an nccl-tests log"};
/// One request line of `commlab eval < FILE`: a fit of the largest log, each byte escaped as
/// \u00XX (6 bytes), fits.
constexpr std::size_t kMaxRequestLineBytes = 64 * 1000 * 1000;

/// Reads `stream` into `text`, stopping once it passes `limit`. False with `error` set
/// ("NAME: more than N bytes (...); allowed: WHAT of at most N bytes") when it does.
bool read_bounded(std::istream& stream, const std::string& name, const ReadLimit& limit, std::string* text,
                  std::string* error);

/// Opens `path` and reads it as read_bounded does. False with `error` naming the path as given
/// when it is missing, a directory, unreadable or too large.
bool read_file_bounded(const std::string& path, const ReadLimit& limit, std::string* text, std::string* error);

/// One line of `stream` (without its newline) into `line`, at most `max_bytes` of it: at a longer
/// line (its end may never come: /dev/zero) reading stops, `too_long` set. False at the end of
/// the stream.
bool read_line_bounded(std::istream& stream, std::size_t max_bytes, std::string* line, bool* too_long);

}  // namespace commlab
