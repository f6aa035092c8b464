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

// One line's content. Kept small: a 1,024-rank log has some 85,000 of them.
struct Event {
  Kind kind = Kind::comm;
  CommKind comm_kind = CommKind::info;
  Direction direction = Direction::none;
  bool cut = false;  // the ring line ended in "..."
  int line = 0;
  int thread = -1, proc = -1, host = -1;  // interned names; -1: the line has no NCCL prefix
  int printer = -1;                       // the rank that printed it, where the format says
  int nranks = 0;                         // a comm line's
  int channel = -1, nrings = 0, conn = -1;
  int from = -1, to = -1;  // a connection; prev_next: prev -> printer -> next
  /// A connection's transport; a comm line's pointer; the version; the in-switch kind.
  std::string text;
  /// A comm line's commId ("" when not printed); an in-switch line's message (at most 80 characters).
  std::string extra;
  std::vector<int> ranks;        // a ring as printed
  std::vector<TreeEntry> trees;  // a Trees line, or the one entry of a Tree line
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
  void name_event(std::string_view thread, Event* e);

  log_reader::Reader cleaner_;
  std::vector<std::string_view> tok_;
  std::unordered_map<std::string, int> ids_;
  std::vector<std::string> names_;
  std::string key_;  // the name being looked up, its buffer reused
  struct ThreadNames {
    int proc = -1, host = -1;
  };
  std::vector<ThreadNames> of_thread_;  // by a thread's id: its process and host
};

}  // namespace commlab::topology_reader
