// The NCCL topology reader's parts (internal to the layer): each line becomes an Event
// (nccl_topology_lines.cpp, by NCCL's print formats), then the events are given to their
// communicators (nccl_topology.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "measured/nccl_log_reader.hpp"
#include "measured/nccl_topology.hpp"

namespace commlab::topology_reader {

enum class Kind : uint8_t { comm, ring, prev_next, trees, tree_graph, connection, version, in_switch };
/// A communicator line: "... - Init START", a plain one ("comm %p rank %d nRanks %d nNodes ..."),
/// "... - Init COMPLETE".
enum class CommKind : uint8_t { start, info, complete };
enum class Direction : uint8_t { none, send, receive };

struct TreeEntry {
  int channel = 0, rank = 0, parent = -1;
  int children[3] = {-1, -1, -1};  // NCCL_MAX_TREE_ARITY
  int nchildren = 0;
};

struct Event {
  Kind kind = Kind::comm;
  int line = 0;
  int thread = -1, proc = -1, host = -1;  // interned names; -1: the line has no NCCL prefix
  int printer = -1;                       // the rank that printed it, where the format says
  // comm
  CommKind comm_kind = CommKind::info;
  std::string pointer, comm_id;
  int nranks = 0;
  // ring, prev_next, connection, tree_graph
  int channel = -1, nrings = 0, conn = -1;
  std::vector<int> ranks;  // a ring as printed
  bool cut = false;        // the ring line ended in "..."
  int from = -1, to = -1;  // a connection; prev_next: prev -> printer -> next
  Direction direction = Direction::none;
  std::string transport;
  std::vector<TreeEntry> trees;  // a Trees line, or the one entry of a Tree line
  std::string text;              // the version; the in-switch kind
  std::string message;           // an in-switch line's message (at most 80 characters)
};

/// One line's parse: an event, nothing (not a topology line), or a refusal.
enum class Parsed : uint8_t { event, other, refused };

class LineParser {
 public:
  /// One line of the text, numbered `n` (1-based). `reason` is set when it is refused.
  Parsed parse(std::string_view raw, int n, Event* e, std::string* reason);
  /// The interned names (threads "host:pid:tid", processes "host:pid", hosts).
  const std::vector<std::string>& names() const { return names_; }

 private:
  Parsed message(std::string_view msg, Event* e, std::string* reason);
  int intern(std::string_view name);

  log_reader::Reader cleaner_;
  std::vector<std::string_view> tok_;
  std::unordered_map<std::string, int> ids_;
  std::vector<std::string> names_;
};

}  // namespace commlab::topology_reader
