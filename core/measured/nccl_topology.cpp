// NCCL's topology lines given to their communicators. A line names no communicator: it belongs to
// the one its thread ("host:pid:tid") is building. NCCL 2.19 and later print "Init START" (and
// 2.21 "comm .. nRanks .. nNodes") before a communicator's lines and "Init COMPLETE" after them;
// 2.5-2.18 print only "Init COMPLETE", after them, so a thread's lines wait for it. Connections
// made at the first collective (2.22's lazy connect) come from the caller's thread, after
// COMPLETE: they go to the process's communicator whose rank printed them. Communicators are one
// across processes by their commId (2.16 and later), else by rank count and order of creation
// in each process (and rank count: a commId printed with two is two communicators); lines with
// no communicator line at all form one of their own until a ring's channel repeats.
#include "measured/nccl_topology.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

#include "base/concat.hpp"
#include "measured/nccl_topology_reader.hpp"

namespace commlab {

namespace {

using topology_reader::CommKind;
using topology_reader::Direction;
using topology_reader::Event;
using topology_reader::Kind;
using topology_reader::Parsed;
using topology_reader::TreeEntry;

constexpr size_t kMaxNotes = 20;

struct LocalComm {
  int proc = -1;
  std::string pointer, comm_id;
  int rank = 0, nranks = 0;
  bool open = false;  // started, not complete
  int global = -1;
};

struct ThreadState {
  int open = -1, last = -1;     // local comms
  std::vector<size_t> pending;  // events waiting for their "Init COMPLETE"
};

struct ProcState {
  std::vector<int> comms;  // local comms, in order
  bool has_start = false;  // its communicators are named before their lines
  std::string version;
};

int max_rank(const Event& e) {
  int m = std::max({e.printer, e.from, e.to});
  for (int r : e.ranks) m = std::max(m, r);
  for (const TreeEntry& t : e.trees) m = std::max({m, t.rank, t.parent, t.children[0], t.children[1], t.children[2]});
  return m;
}

class Builder {
 public:
  TopologyLog run(std::string_view text);

 private:
  void comm_event(size_t i);
  void topology_event(size_t i);
  bool fits(const Event& e, int local, bool by_printer) const {
    const LocalComm& c = locals_[local];
    return max_rank(e) < c.nranks && (!by_printer || e.printer < 0 || e.printer == c.rank);
  }
  int in_process(const Event& e, int proc) const;
  void group();
  void build(TopologyLog* out);

  topology_reader::LineParser parser_;
  std::vector<Event> events_;
  std::vector<int> owner_;  // the local comm, -1 none yet, or (after group) the global one
  std::vector<LocalComm> locals_;
  std::unordered_map<int, ThreadState> threads_;
  std::unordered_map<int, ProcState> procs_;
  std::vector<std::string> versions_;  // distinct, in order
  int globals_ = 0;
  std::vector<std::string> global_ids_;
  std::vector<int> global_nranks_;  // 0: no communicator line (the highest rank seen + 1)
};

int Builder::in_process(const Event& e, int proc) const {
  const auto it = procs_.find(proc);
  if (it == procs_.end()) return -1;
  const std::vector<int>& comms = it->second.comms;
  for (bool by_printer : {true, false})
    for (auto c = comms.rbegin(); c != comms.rend(); ++c)
      if (fits(e, *c, by_printer)) return *c;
  return -1;
}

void Builder::comm_event(size_t i) {
  const Event& e = events_[i];
  ThreadState& ts = threads_[e.thread];
  ProcState& ps = procs_[e.proc];
  int local = -1;
  if (ts.open >= 0 && locals_[ts.open].open && locals_[ts.open].pointer == e.text) local = ts.open;
  if (local < 0 && e.comm_kind == CommKind::complete)  // completed from another thread
    for (auto c = ps.comms.rbegin(); c != ps.comms.rend() && local < 0; ++c)
      if (locals_[*c].open && locals_[*c].pointer == e.text) local = *c;
  if (local < 0) {
    local = static_cast<int>(locals_.size());
    LocalComm c;
    c.proc = e.proc;
    c.pointer = e.text;
    c.rank = e.printer;
    c.nranks = e.nranks;
    c.open = e.comm_kind != CommKind::complete;
    locals_.push_back(std::move(c));
    ps.comms.push_back(local);
  }
  LocalComm& c = locals_[local];
  if (c.comm_id.empty()) c.comm_id = e.extra;
  owner_[i] = local;
  ts.last = local;
  if (e.comm_kind != CommKind::complete) {
    ps.has_start = true;
    ts.open = local;
    return;
  }
  c.open = false;
  if (ts.open == local) ts.open = -1;
  // 2.5-2.18: the lines this thread printed since its last communicator were this one's.
  std::vector<size_t> keep;
  for (size_t j : ts.pending) {
    if (fits(events_[j], local, true)) owner_[j] = local;
    else keep.push_back(j);
  }
  ts.pending.swap(keep);
}

void Builder::topology_event(size_t i) {
  const Event& e = events_[i];
  ThreadState& ts = threads_[e.thread];
  if (ts.open >= 0 && locals_[ts.open].open && fits(e, ts.open, true)) {
    owner_[i] = ts.open;
    return;
  }
  const auto ps = procs_.find(e.proc);
  if (ps != procs_.end() && ps->second.has_start) {
    owner_[i] = in_process(e, e.proc);
    return;
  }
  ts.pending.push_back(i);
}

// Local communicators to global ones, and the lines without one to communicators of their own.
void Builder::group() {
  std::unordered_map<std::string, int> ids;
  std::unordered_map<std::string, int> seen;  // per process, rank count and rank: how many so far
  for (LocalComm& c : locals_) {
    // A commId is one communicator, of one rank count: lines that say otherwise are two.
    std::string key;
    if (!c.comm_id.empty()) {
      key = concat({"id ", c.comm_id, " n ", std::to_string(c.nranks)});
    } else {
      const std::string mine = concat({std::to_string(c.proc), " ", std::to_string(c.nranks), " ", std::to_string(c.rank)});
      key = concat({"n ", std::to_string(c.nranks), " #", std::to_string(seen[mine]++)});
    }
    const auto it = ids.find(key);
    if (it != ids.end()) {
      c.global = it->second;
      continue;
    }
    c.global = globals_++;
    ids.emplace(key, c.global);
    global_ids_.push_back(c.comm_id);
    global_nranks_.push_back(c.nranks);
  }
  // Lines no communicator line claims: one communicator until a ring's channel comes again.
  int anonymous = -1;
  uint64_t rings_seen = 0;
  for (size_t i = 0; i < events_.size(); ++i) {
    const Event& e = events_[i];
    if (e.kind == Kind::version || e.kind == Kind::in_switch) continue;
    if (owner_[i] >= 0) {
      owner_[i] = locals_[owner_[i]].global;
      continue;
    }
    const uint64_t bit = e.kind == Kind::ring ? uint64_t{1} << e.channel : 0;
    if (anonymous < 0 || (rings_seen & bit)) {
      anonymous = globals_++;
      global_ids_.emplace_back();
      global_nranks_.push_back(0);
      rings_seen = 0;
    }
    rings_seen |= bit;
    owner_[i] = anonymous;
  }
}

TopologyLog Builder::run(std::string_view text) {
  TopologyLog out;
  int n = 0;
  std::string why;
  events_.reserve(static_cast<size_t>(log_line_count(text)));  // one allocation, no event moved
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    const std::string_view raw = text.substr(at, end - at);
    at = end + 1;
    ++n;
    Event e;
    why.clear();
    const Parsed p = parser_.parse(raw, n, &e, &why);
    if (p == Parsed::event) {
      ++out.topology_lines;
      events_.push_back(std::move(e));
      continue;
    }
    if (raw.find_first_not_of(" \t\r\v\f") == std::string_view::npos) continue;
    ++out.skipped_lines;
    if (p != Parsed::refused) continue;
    if (out.rejected_lines++ < kMaxTopologyRejectedShown) out.rejected.push_back({n, why});
  }
  out.lines = n;
  owner_.assign(events_.size(), -1);
  for (size_t i = 0; i < events_.size(); ++i) {
    const Event& e = events_[i];
    if (e.kind == Kind::comm) comm_event(i);
    else if (e.kind == Kind::version) {
      std::string& v = procs_[e.proc].version;
      if (v.empty()) v = e.text;
      if (std::find(versions_.begin(), versions_.end(), e.text) == versions_.end() && versions_.size() < 16)
        versions_.push_back(e.text);
    } else if (e.kind == Kind::in_switch) {
      bool had = false;
      for (const TopoInSwitchLine& s : out.in_switch) had = had || s.says == e.text;
      if (!had) out.in_switch.push_back({e.line, e.text, e.extra});
    } else {
      topology_event(i);
    }
  }
  // Lines still waiting: their thread's last communicator, else their process's.
  for (auto& [thread, ts] : threads_)
    for (size_t j : ts.pending) {
      const Event& e = events_[j];
      if (ts.last >= 0 && fits(e, ts.last, false)) owner_[j] = ts.last;
      else owner_[j] = in_process(e, e.proc);
    }
  group();
  if (globals_ > kMaxTopologyCommunicators) {
    out.too_many_communicators = globals_;
    return out;
  }
  build(&out);
  return out;
}

void note(TopoComm& c, std::string text) {
  if (c.notes.size() < kMaxNotes) c.notes.push_back(std::move(text));
}

// A ring that lists every rank of `ranks` once.
bool whole_ring(const std::vector<int>& ring, int ranks) {
  if (static_cast<int>(ring.size()) != ranks) return false;
  std::vector<int> sorted = ring;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < ranks; ++i)
    if (sorted[static_cast<size_t>(i)] != i) return false;
  return true;
}

// The ring from every rank's "Ring c : prev -> rank -> next" line, from rank 0; empty when a
// rank's line is missing or the links do not close into one ring.
std::vector<int> rebuild(const std::vector<std::array<int, 2>>& rank_next, int ranks) {
  if (ranks < 1 || rank_next.size() < static_cast<size_t>(ranks)) return {};
  std::vector<int> next(static_cast<size_t>(ranks), -1);
  for (const auto& [r, n] : rank_next) {
    if (r >= ranks || n >= ranks) return {};
    int& slot = next[static_cast<size_t>(r)];
    if (slot >= 0 && slot != n) return {};
    slot = n;
  }
  std::vector<int> ring;
  ring.reserve(static_cast<size_t>(ranks));
  for (int r = 0; static_cast<int>(ring.size()) < ranks; r = next[static_cast<size_t>(r)]) {
    if (r < 0) return {};
    ring.push_back(r);
  }
  return ring.size() == static_cast<size_t>(ranks) && next[static_cast<size_t>(ring.back())] == 0 && whole_ring(ring, ranks)
             ? ring
             : std::vector<int>();
}

void Builder::build(TopologyLog* out) {
  struct Work {
    std::unordered_map<int, int> host_by_rank;  // rank -> interned host
    int max_rank = -1;
    int ring_of[kMaxNcclChannels];
    std::vector<std::array<int, 2>> rank_next[kMaxNcclChannels];
    int prev_next_line[kMaxNcclChannels] = {};
    std::unordered_set<uint64_t> trees;
  };
  out->communicators.resize(static_cast<size_t>(globals_));
  std::vector<Work> work(static_cast<size_t>(globals_));
  for (Work& w : work) std::fill(std::begin(w.ring_of), std::end(w.ring_of), -1);
  for (size_t i = 0; i < events_.size(); ++i) {
    const Event& e = events_[i];
    if (e.kind == Kind::version || e.kind == Kind::in_switch || owner_[i] < 0) continue;
    TopoComm& c = out->communicators[static_cast<size_t>(owner_[i])];
    Work& w = work[static_cast<size_t>(owner_[i])];
    if (!c.first_line) c.first_line = e.line;
    c.last_line = e.line;
    w.max_rank = std::max(w.max_rank, max_rank(e));
    if (e.printer >= 0 && e.host >= 0) {
      const auto [it, fresh] = w.host_by_rank.emplace(e.printer, e.host);
      if (!fresh && it->second != e.host)
        note(c, concat({"line ", std::to_string(e.line), ": rank ", std::to_string(e.printer), " printed from ",
                        std::string_view(parser_.names()[static_cast<size_t>(e.host)]).substr(1), ", earlier from ",
                        std::string_view(parser_.names()[static_cast<size_t>(it->second)]).substr(1),
                        ": the first host kept (two communicators of one rank count without a commId?)"}));
    }
    if (c.version.empty() && e.proc >= 0) c.version = procs_[e.proc].version;
    const size_t ch = e.channel >= 0 ? static_cast<size_t>(e.channel) : 0;
    if (e.kind == Kind::ring) {
      if (w.ring_of[ch] >= 0) {
        note(c, concat({"line ", std::to_string(e.line), ": channel ", std::to_string(e.channel),
                        "'s ring printed again: the first kept"}));
        continue;
      }
      w.ring_of[ch] = static_cast<int>(c.channels.size());
      TopoChannel t;
      t.channel = e.channel;
      t.line = e.line;
      t.ring = e.ranks;
      c.channels.push_back(std::move(t));
    } else if (e.kind == Kind::prev_next) {
      if (w.rank_next[ch].empty()) w.prev_next_line[ch] = e.line;
      w.rank_next[ch].push_back({e.printer, e.to});
    } else if (e.kind == Kind::trees || e.kind == Kind::tree_graph) {
      for (const TreeEntry& t : e.trees) {
        const uint64_t key = (static_cast<uint64_t>(t.channel) << 32) | static_cast<uint32_t>(t.rank);
        if (!w.trees.insert(key).second) continue;
        c.trees.push_back({t.channel, t.rank, t.parent, std::vector<int>(t.children, t.children + t.nchildren)});
      }
    } else if (e.kind == Kind::connection) {
      c.connections.push_back({e.channel, e.conn, e.from, e.to,
                               e.direction == Direction::send      ? "send"
                               : e.direction == Direction::receive ? "receive"
                                                                   : "",
                               e.text});
    }
  }
  for (size_t g = 0; g < work.size(); ++g) {
    TopoComm& c = out->communicators[g];
    Work& w = work[g];
    c.comm_id = global_ids_[g];
    c.ranks = global_nranks_[g] > 0 ? global_nranks_[g] : w.max_rank + 1;
    c.ranks_from = global_nranks_[g] > 0 ? "nRanks" : "highest rank seen";
    if (c.version.empty() && versions_.size() == 1) c.version = versions_[0];
    for (int ch = 0; ch < kMaxNcclChannels; ++ch) {
      const std::vector<int> ring = rebuild(w.rank_next[ch], c.ranks);
      if (w.ring_of[ch] < 0 && !ring.empty()) {
        w.ring_of[ch] = static_cast<int>(c.channels.size());
        c.channels.push_back({ch, w.prev_next_line[ch], {}, false, {}});
      }
      if (w.ring_of[ch] < 0) continue;
      TopoChannel& t = c.channels[static_cast<size_t>(w.ring_of[ch])];
      t.complete = whole_ring(t.ring, c.ranks);
      if (t.complete || ring.empty()) continue;
      if (std::equal(t.ring.begin(), t.ring.end(), ring.begin(), ring.begin() + static_cast<long>(std::min(ring.size(), t.ring.size()))))
        t.rebuilt = ring;
      else
        note(c, concat({"channel ", std::to_string(ch), ": the printed ring and the ranks' prev -> rank -> next lines "
                        "disagree: the printed one kept"}));
    }
    std::sort(c.channels.begin(), c.channels.end(), [](const TopoChannel& a, const TopoChannel& b) { return a.channel < b.channel; });
    std::sort(c.trees.begin(), c.trees.end(), [](const TopoTree& a, const TopoTree& b) {
      return a.channel != b.channel ? a.channel < b.channel : a.rank < b.rank;
    });
    // Hosts in the order of their lowest rank, each with its ranks.
    std::vector<std::pair<int, int>> by_rank(w.host_by_rank.begin(), w.host_by_rank.end());
    std::sort(by_rank.begin(), by_rank.end());
    std::unordered_map<int, int> index;
    for (const auto& [rank, host] : by_rank) {
      auto [it, fresh] = index.emplace(host, static_cast<int>(c.hosts.size()));
      if (fresh) {
        c.hosts.push_back(parser_.names()[static_cast<size_t>(host)].substr(1));
        c.nodes.push_back({c.hosts.back(), {}});
      }
      c.nodes[static_cast<size_t>(it->second)].ranks.push_back(rank);
      c.rank_hosts.push_back({rank, it->second});
    }
  }
}

}  // namespace

int topology_host_of(const TopoComm& comm, int rank) {
  const auto it = std::lower_bound(comm.rank_hosts.begin(), comm.rank_hosts.end(), std::make_pair(rank, -1));
  return it != comm.rank_hosts.end() && it->first == rank ? it->second : -1;
}

double topology_work_units(double bytes) {
  // As the fit's: reading, grouping and writing the answer, about 10 ns a byte natively.
  return 2 * bytes;
}

TopologyLog read_nccl_topology(std::string_view text) {
  Builder b;
  return b.run(text);
}

}  // namespace commlab
