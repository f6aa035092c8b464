// One line of NCCL's INFO output read by its print format (NVIDIA/nccl, every release since 2.3):
// the prefix "[timestamp] host:pid:tid [cudaDev] NCCL INFO " (src/debug.cc; the timestamp only
// when NCCL_DEBUG_TIMESTAMP_LEVELS asks), after the launchers' prefixes, then the message:
//   rings     "Channel 00/16 :  0  7  6 ..." (src/graph/rings.cc dumpLine: " %*d" in 128
//             characters, "..." where cut; before 2.23 " %3d" for at most 20 ranks), "Channel 00 :"
//             (2.4), "Ring 00 :" (2.3); every rank's "Ring 00 : 7 -> 0 -> 1" (prev -> rank -> next,
//             init.cc, NCCL_GRAPH, 2.12 and later)
//   trees     "Trees [0] 1/8/-1->0->-1 [1] ..." (children->rank->parent, 2.8 and later),
//             "[0] 1/2/-1->0->-1|-1->0->1/2/-1" (the up tree | the down tree, 2.5-2.7),
//             "[0] -1->0->1/2/-1" (parent->rank->children, 2.4); "Tree 0 : -1 -> 0 -> 1/8/-1"
//             (src/graph/connect.cc, NCCL_GRAPH)
//   links     "Channel 00/0 : 9[51000] -> 0[4b000] [receive] via NET/IB/0" (src/transport/*.cc),
//             "Channel 00 : ..." (2.7-2.11), "Ring 00 : 3[3] -> 4[4] via P2P/IPC" (2.3-2.6)
//   comms     "comm 0x.. rank 3 nRanks 16 nNodes 2 localRanks 8 localRank 3 MNNVL 0" (2.21 and
//             later), "[ncclCommInitRank] comm 0x.. rank 3 nranks 16 ... commId 0x.. - Init START"
//             and "- Init COMPLETE" (commId since 2.16), "comm 0x.. rank 3 nranks 16 ..." (2.3-2.4)
//   version   "NCCL version 2.19.3+cuda12.3"
#include <cstring>

#include "base/concat.hpp"
#include "base/request.hpp"
#include "measured/nccl_topology_reader.hpp"

namespace commlab::topology_reader {

namespace {

using log_reader::is_digit;
using log_reader::is_space;
using log_reader::starts_with;

constexpr size_t kMaxTokens = 400;  // a Trees line of 64 channels is 130
constexpr size_t kMessageChars = 80;

void split(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0;
  while (i < s.size() && out.size() < kMaxTokens) {
    while (i < s.size() && is_space(s[i])) ++i;
    const size_t b = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// "-?digits", at most 9 digits.
bool integer(std::string_view t, long long* v) {
  bool minus = !t.empty() && t[0] == '-';
  if (minus) t.remove_prefix(1);
  if (t.empty() || t.size() > 9) return false;
  long long x = 0;
  for (char c : t) {
    if (!is_digit(c)) return false;
    x = x * 10 + (c - '0');
  }
  *v = minus ? -x : x;
  return true;
}

// A rank as a connection line prints it: "9", or "9[51000]" (its device or bus id).
bool rank_token(std::string_view t, long long* v) {
  const size_t b = t.find('[');
  if (b != std::string_view::npos) {
    if (t.back() != ']' || b + 2 > t.size() - 1) return false;
    for (char c : t.substr(b + 1, t.size() - b - 2))
      if (!is_digit(c) && !((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
    t = t.substr(0, b);
  }
  return !t.empty() && t[0] != '-' && integer(t, v);
}

// "%02d" or "%02d/%d".
bool channel_token(std::string_view t, long long* channel, long long* after_slash) {
  *after_slash = -1;
  const size_t slash = t.find('/');
  if (slash != std::string_view::npos && !integer(t.substr(slash + 1), after_slash)) return false;
  const std::string_view c = t.substr(0, slash);
  return c.size() >= 2 && c[0] != '-' && integer(c, channel);
}

std::string ranks_allowed() { return concat({"allowed: 0 to ", std::to_string(kMaxDevices - 1)}); }

// A rank of a line: below the engine's device limit.
bool rank_ok(long long r, const char* what, std::string* why) {
  if (r >= 0 && r < kMaxDevices) return true;
  *why = concat({what, " ", std::to_string(r), " is not a rank the engine models; ", ranks_allowed()});
  return false;
}

bool channel_ok(long long c, std::string* why) {
  if (c >= 0 && c < kMaxNcclChannels) return true;
  *why = concat({"channel ", std::to_string(c), " is past NCCL's MAXCHANNELS (", std::to_string(kMaxNcclChannels),
                 "); allowed: 0 to ", std::to_string(kMaxNcclChannels - 1)});
  return false;
}

// "1/8/-1": the three children slots of NCCL_MAX_TREE_ARITY, -1 where empty.
bool children_of(std::string_view t, TreeEntry* e, std::string* why) {
  for (int k = 0; k < 3; ++k) {
    const size_t slash = k < 2 ? t.find('/') : t.size();
    if (slash == std::string_view::npos || (k == 2 && t.find('/') != std::string_view::npos)) return false;
    long long v = 0;
    if (!integer(t.substr(0, slash), &v)) return false;
    if (v != -1 && !rank_ok(v, "a child", why)) return false;
    if (v >= 0) e->children[e->nchildren++] = static_cast<int>(v);
    if (k < 2) t = t.substr(slash + 1);
  }
  return true;
}

// One tree as "children->rank->parent" or "parent->rank->children".
bool tree_spec(std::string_view t, TreeEntry* e, std::string* why) {
  const size_t a = t.find("->");
  const size_t b = a == std::string_view::npos ? a : t.find("->", a + 2);
  if (b == std::string_view::npos || t.find("->", b + 2) != std::string_view::npos) return false;
  const std::string_view first = t.substr(0, a), mid = t.substr(a + 2, b - a - 2), last = t.substr(b + 2);
  long long rank = 0, parent = 0;
  if (!integer(mid, &rank) || !rank_ok(rank, "rank", why)) return false;
  const bool children_first = first.find('/') != std::string_view::npos;
  if (!integer(children_first ? last : first, &parent)) return false;
  if (parent != -1 && !rank_ok(parent, "a parent", why)) return false;
  if (!children_of(children_first ? first : last, e, why)) return false;
  e->rank = static_cast<int>(rank);
  e->parent = static_cast<int>(parent);
  return true;
}

// "Trees [0] 1/8/-1->0->-1 [1] ...": a line cut at its 1023 characters loses its last entry.
Parsed trees_line(const std::vector<std::string_view>& t, Event* e, std::string* why) {
  e->kind = Kind::trees;
  for (size_t i = 1; i + 1 < t.size(); i += 2) {
    const std::string_view c = t[i];
    long long channel = 0;
    if (c.size() < 3 || c.front() != '[' || c.back() != ']' || !integer(c.substr(1, c.size() - 2), &channel)) break;
    if (!channel_ok(channel, why)) return Parsed::refused;
    TreeEntry entry;
    entry.channel = static_cast<int>(channel);
    const std::string_view spec = t[i + 1].substr(0, t[i + 1].find('|'));  // 2.5-2.7: the up tree first
    if (!tree_spec(spec, &entry, why)) {
      if (!why->empty()) return Parsed::refused;
      break;
    }
    if (!e->trees.empty() && entry.rank != e->trees[0].rank) {
      *why = concat({"a Trees line names rank ", std::to_string(e->trees[0].rank), " and rank ",
                     std::to_string(entry.rank), "; allowed: one rank a line (the rank that printed it)"});
      return Parsed::refused;
    }
    e->trees.push_back(entry);
  }
  if (e->trees.empty()) return Parsed::other;
  e->printer = e->trees[0].rank;
  return Parsed::event;
}

// After "Channel 00/0 :" or "Ring 00 :": a ring, prev -> rank -> next, or a connection.
Parsed channel_line(std::string_view msg, const std::vector<std::string_view>& t, Event* e, std::string* why) {
  long long channel = 0, slash = 0;
  if (!channel_token(t[1], &channel, &slash)) return Parsed::other;
  const bool ring_word = t[0] == "Ring";
  if (ring_word && slash >= 0) return Parsed::other;
  size_t via = 0;
  for (size_t i = 3; i < t.size() && !via; ++i)
    if (t[i] == "via") via = i;
  long long a = 0, b = 0, c = 0;
  if (via) {  // a connection: A -> B [send|receive] via TRANSPORT
    if (via < 6 || t[4] != "->" || !rank_token(t[3], &a) || !rank_token(t[5], &b)) return Parsed::other;
    if (via == 7 && t[6] == "[send]") e->direction = Direction::send;
    else if (via == 7 && t[6] == "[receive]") e->direction = Direction::receive;
    else if (via != 6) return Parsed::other;
    const std::string_view transport = trim(msg.substr(static_cast<size_t>(t[via].data() - msg.data()) + 3));
    if (transport.empty()) return Parsed::other;
    if (!channel_ok(channel, why) || !rank_ok(a, "rank", why) || !rank_ok(b, "rank", why)) return Parsed::refused;
    if (transport.size() > kMaxTransportChars) {
      *why = concat({"a transport of ", std::to_string(transport.size()), " characters; allowed: at most ",
                     std::to_string(kMaxTransportChars)});
      return Parsed::refused;
    }
    e->kind = Kind::connection;
    e->channel = static_cast<int>(channel);
    e->conn = slash >= 0 ? static_cast<int>(slash) : -1;
    e->from = static_cast<int>(a);
    e->to = static_cast<int>(b);
    e->text = std::string(transport);
    // A receive is printed by its receiver, and so is 2.3's NET line; the rest by the sender.
    const bool receiver = e->direction == Direction::receive ||
                          (e->direction == Direction::none && starts_with(transport, "NET/"));
    e->printer = receiver ? e->to : e->from;
    return Parsed::event;
  }
  if (ring_word && t.size() == 8 && t[4] == "->" && t[6] == "->") {  // prev -> rank -> next
    if (!integer(t[3], &a) || !integer(t[5], &b) || !integer(t[7], &c)) return Parsed::other;
    if (!channel_ok(channel, why) || !rank_ok(a, "prev", why) || !rank_ok(b, "rank", why) || !rank_ok(c, "next", why))
      return Parsed::refused;
    e->kind = Kind::prev_next;
    e->channel = static_cast<int>(channel);
    e->from = static_cast<int>(a);
    e->printer = static_cast<int>(b);
    e->to = static_cast<int>(c);
    return Parsed::event;
  }
  // A ring: ranks only, the last one maybe cut ("12...", "...").
  if (t.size() < 4) return Parsed::other;
  for (size_t i = 3; i < t.size(); ++i) {
    long long r = 0;
    if (i + 1 == t.size() && t[i].size() >= 3 && t[i].substr(t[i].size() - 3) == "...") {
      e->cut = true;
      break;
    }
    if (!integer(t[i], &r)) return Parsed::other;
    if (!rank_ok(r, "rank", why)) return Parsed::refused;
    e->ranks.push_back(static_cast<int>(r));
  }
  if (!channel_ok(channel, why)) return Parsed::refused;
  if (slash == 0 || slash > kMaxNcclChannels) {
    *why = concat({"a ring line of ", std::to_string(slash), " channels; allowed: 1 to ",
                   std::to_string(kMaxNcclChannels), " (NCCL's MAXCHANNELS)"});
    return Parsed::refused;
  }
  if (e->ranks.empty()) return Parsed::other;
  e->kind = Kind::ring;
  e->channel = static_cast<int>(channel);
  e->nrings = slash > 0 ? static_cast<int>(slash) : 0;
  e->printer = e->ranks[0];
  return Parsed::event;
}

// "comm 0x.. rank 3 nRanks 16 ..." with its key-value pairs, maybe after the function's name,
// maybe ending "- Init START" or "- Init COMPLETE" (other endings: Destroy, Abort, Revoke).
Parsed comm_line(const std::vector<std::string_view>& t, size_t at, Event* e, std::string* why) {
  if (at + 1 >= t.size()) return Parsed::other;
  e->text = std::string(t[at + 1]);
  long long rank = -1, nranks = -1;
  size_t i = at + 2;
  for (; i + 1 < t.size() && t[i] != "-"; i += 2) {
    const std::string_view k = t[i], v = t[i + 1];
    if (k == "rank" && !integer(v, &rank)) return Parsed::other;
    if ((k == "nRanks" || k == "nranks") && !integer(v, &nranks)) return Parsed::other;
    if (k == "commId" && v.size() > 2 && v.size() <= 18 && starts_with(v, "0x")) e->extra = std::string(v);
  }
  if (i < t.size() && t[i] != "-") return Parsed::other;
  e->comm_kind = CommKind::info;
  if (i < t.size()) {
    const bool init = t.size() == i + 3 && t[i + 1] == "Init";
    if (init && t[i + 2] == "START") e->comm_kind = CommKind::start;
    else if (init && t[i + 2] == "COMPLETE") e->comm_kind = CommKind::complete;
    else return Parsed::other;
  }
  if (rank < 0 || nranks < 0) return Parsed::other;
  if (nranks < 1 || nranks > kMaxDevices) {
    *why = concat({"nRanks ", std::to_string(nranks), " is not a rank count the engine models; allowed: 1 to ",
                   std::to_string(kMaxDevices)});
    return Parsed::refused;
  }
  if (rank >= nranks) {
    *why = concat({"rank ", std::to_string(rank), " of a communicator of ", std::to_string(nranks),
                   " ranks; allowed: 0 to ", std::to_string(nranks - 1)});
    return Parsed::refused;
  }
  e->kind = Kind::comm;
  e->printer = static_cast<int>(rank);
  e->nranks = static_cast<int>(nranks);
  return Parsed::event;
}

// A message at most kMessageChars long, not cut inside a UTF-8 character.
std::string short_message(std::string_view s) {
  if (s.size() <= kMessageChars) return std::string(s);
  size_t cut = kMessageChars - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return concat({s.substr(0, cut), "..."});
}

}  // namespace

int LineParser::intern(std::string_view name) {
  key_.assign(name.data(), name.size());
  const auto it = ids_.find(key_);
  if (it != ids_.end()) return it->second;
  const int id = static_cast<int>(names_.size());
  names_.push_back(key_);
  ids_.emplace(key_, id);
  return id;
}

// "host:pid:tid": the thread's id, and its process's and host's, looked up once a thread.
void LineParser::name_event(std::string_view thread, Event* e) {
  e->thread = intern(concat({"T", thread}));
  if (static_cast<size_t>(e->thread) >= of_thread_.size()) of_thread_.resize(static_cast<size_t>(e->thread) + 1);
  ThreadNames& n = of_thread_[static_cast<size_t>(e->thread)];
  if (n.proc < 0) {
    const size_t c2 = thread.rfind(':');
    const size_t c1 = thread.rfind(':', c2 - 1);
    n.proc = intern(concat({"P", thread.substr(0, c2)}));
    n.host = intern(concat({"H", thread.substr(0, c1)}));
    if (static_cast<size_t>(n.proc) >= of_thread_.size() || static_cast<size_t>(n.host) >= of_thread_.size())
      of_thread_.resize(std::max(n.proc, n.host) + 1);
  }
  const ThreadNames& m = of_thread_[static_cast<size_t>(e->thread)];
  e->proc = m.proc;
  e->host = m.host;
}

Parsed LineParser::message(std::string_view msg, Event* e, std::string* why) {
  split(msg, tok_);
  const std::vector<std::string_view>& t = tok_;
  if (t.empty()) return Parsed::other;
  if (t.size() >= 3 && t[0] == "NCCL" && t[1] == "version") {
    e->kind = Kind::version;
    e->text = short_message(t[2]);
    return Parsed::event;
  }
  if (t[0] == "Trees") return trees_line(t, e, why);
  if (t[0] == "Tree" && t.size() == 8 && t[2] == ":" && t[4] == "->" && t[6] == "->") {  // up -> rank -> children
    long long channel = 0;
    TreeEntry entry;
    const std::string spec = concat({t[3], "->", t[5], "->", t[7]});
    if (!integer(t[1], &channel) || !tree_spec(spec, &entry, why))
      return why->empty() ? Parsed::other : Parsed::refused;
    if (!channel_ok(channel, why)) return Parsed::refused;
    entry.channel = static_cast<int>(channel);
    e->kind = Kind::tree_graph;
    e->trees.push_back(entry);
    e->printer = entry.rank;
    return Parsed::event;
  }
  if ((t[0] == "Channel" || t[0] == "Ring") && t.size() >= 4 && t[2] == ":") {
    const Parsed p = channel_line(msg, t, e, why);
    if (p != Parsed::other) return p;
  }
  const size_t at = t[0] == "comm" ? 0 : (t.size() > 1 && t[1] == "comm" && starts_with(t[0], "nccl")) ? 1 : t.size();
  if (at < t.size()) {
    const Parsed p = comm_line(t, at, e, why);
    if (p != Parsed::other) return p;
  }
  // Lines saying a switch reduces (P5 §5.4), or that the user chose the algorithm.
  const char* says = nullptr;
  const bool negative = contains(msg, "not available") || contains(msg, "disabl") || contains(msg, "CollNet device");
  if (contains(msg, "NCCL_ALGO")) says = "nccl_algo";
  else if (contains(msg, "NVLS") && !negative) says = "nvls";
  else if ((contains(msg, "CollNet") || contains(msg, "COLLNET")) && !negative) says = "collnet";
  if (!says) return Parsed::other;
  e->kind = Kind::in_switch;
  e->text = says;
  e->extra = short_message(trim(msg));
  return Parsed::event;
}

Parsed LineParser::parse(std::string_view raw, int n, Event* e, std::string* why) {
  const std::string_view s = trim(cleaner_.clean(raw));
  if (s.empty()) return Parsed::other;
  std::string_view msg = s, thread;
  const size_t info = s.find("NCCL INFO");
  if (info != std::string_view::npos) {
    msg = trim(s.substr(info + 9));
    // "host:pid:tid [dev] " before it: the last two words (a timestamp may come first).
    std::string_view head = trim(s.substr(0, info));
    const size_t sp = head.find_last_of(" \t");
    const std::string_view dev = sp == std::string_view::npos ? head : head.substr(sp + 1);
    const std::string_view rest = sp == std::string_view::npos ? std::string_view() : trim(head.substr(0, sp));
    const size_t sp2 = rest.find_last_of(" \t");
    const std::string_view who = sp2 == std::string_view::npos ? rest : rest.substr(sp2 + 1);
    const size_t c2 = who.rfind(':');
    const size_t c1 = c2 == std::string_view::npos || c2 == 0 ? std::string_view::npos : who.rfind(':', c2 - 1);
    long long v = 0;
    if (dev.size() >= 3 && dev.front() == '[' && dev.back() == ']' && c1 != std::string_view::npos && c1 > 0 &&
        integer(who.substr(c1 + 1, c2 - c1 - 1), &v) && integer(who.substr(c2 + 1), &v))
      thread = who;
  } else if (contains(s, "NCCL WARN") || contains(s, "NCCL TRACE") || contains(s, "NCCL CALL")) {
    return Parsed::other;
  }
  e->line = n;
  const Parsed p = message(msg, e, why);
  if (p == Parsed::event && !thread.empty()) name_event(thread, e);
  return p;
}

}  // namespace commlab::topology_reader
