// NCCL's own account of what it built, read from its NCCL_DEBUG=INFO lines (core/README.md
// "Measured against the model"; P5 §4-5: rings, trees, NVLink inside a node, the network between
// nodes): each communicator's rank count and hosts, the rings of its channels, its trees and the
// transport of every connection, in every format NCCL has printed since 2.3 (the printf formats of
// NVIDIA/nccl src/graph/rings.cc, src/init.cc, src/graph/connect.cc, src/transport/*.cc). Then the
// lecture's model applied to that structure: which hops cross nodes, the slowest link that bounds
// each ring, and the bus bandwidth that bound predicts (nccl_topology_explain.cpp).
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "measured/nccl_log.hpp"
#include "model/links.hpp"

namespace commlab {

/// NCCL's MAXCHANNELS (src/include/device.h: 64 since 2.24, 32 before, 16 in 2.4): channel
/// indices run below it.
constexpr int kMaxNcclChannels = 64;
/// Communicators one log may hold: a 1,024-GPU job's data, tensor and pipeline groups are a few
/// hundred.
constexpr int kMaxTopologyCommunicators = 1024;
/// Refused lines reported one by one (all are counted).
constexpr int kMaxTopologyRejectedShown = 100;
/// Characters of a transport as printed ("NET/IB/0(3)/GDRDMA(PCI)/Shared" is 30).
constexpr size_t kMaxTransportChars = 120;

struct TopoChannel {
  int channel = 0;
  int line = 0;
  std::vector<int> ring;  // as printed, rank 0 first; NCCL cuts long lines
  bool complete = false;  // lists every rank of the communicator once
  /// The whole ring from every rank's "Ring 03 : prev -> rank -> next" line (NCCL_DEBUG_SUBSYS
  /// GRAPH), where the printed one is cut or missing; empty otherwise.
  std::vector<int> rebuilt;
};

struct TopoTree {
  int channel = 0, rank = 0;
  int parent = -1;  // -1 at the root
  std::vector<int> children;
};

struct TopoConnection {
  int channel = 0;
  int conn = -1;  // the connection index after the channel ("Channel 02/1"), -1 when not printed
  int from = 0, to = 0;
  std::string direction;  // "send", "receive", or "" when not printed
  std::string transport;  // as printed after "via": "P2P/CUMEM/read", "NET/IB/0/GDRDMA", ...
};

struct TopoNode {
  std::string host;
  std::vector<int> ranks;
};

struct TopoComm {
  std::string comm_id;  // "0x..." (commId, NCCL 2.16 and later), "" when not printed
  int ranks = 0;
  std::string ranks_from;  // "nRanks" (a comm line), or "highest rank seen" (none)
  std::vector<TopoNode> nodes;
  std::string version;  // "2.19.3+cuda12.3", "" when not printed
  std::vector<TopoChannel> channels;
  std::vector<TopoTree> trees;
  std::vector<TopoConnection> connections;
  int first_line = 0, last_line = 0;
  std::vector<std::string> notes;
  /// The ranks whose host is known, (rank, index into `hosts`), by rank: sparse, as a printed
  /// nRanks may be far above the ranks a log shows.
  std::vector<std::pair<int, int>> rank_hosts;
  std::vector<std::string> hosts;
};

/// A rank's host, an index into comm.hosts, or -1 when no line of its says.
int topology_host_of(const TopoComm& comm, int rank);

/// A line saying NCCL reduces in a switch or was told which algorithm to use.
struct TopoInSwitchLine {
  int line = 0;
  std::string says;  // "nvls", "collnet", "nccl_algo"
  std::string text;  // the line's message, at most 80 characters
};

struct TopologyLog {
  std::vector<TopoComm> communicators;
  int lines = 0;
  int topology_lines = 0;  // lines read: topology, communicator, version and in-switch lines
  int skipped_lines = 0;   // every other non-blank line (nccl-tests' table lines included)
  int rejected_lines = 0;  // lines in a topology format whose values are refused (counted skipped too)
  std::vector<LogSkip> rejected;  // the first kMaxTopologyRejectedShown, each with its reason
  std::vector<TopoInSwitchLine> in_switch;  // the first line of each kind
  /// More communicators than kMaxTopologyCommunicators: `communicators` is then empty, and this
  /// their count.
  int too_many_communicators = 0;
};

/// Reads every communicator of `text`. Never throws for any text (the fuzz target holds it to
/// that); a text without topology lines has no communicators.
TopologyLog read_nccl_topology(std::string_view text);

/// The links the explanation prices each hop class with (P5 §0.4: effective = nominal x 0.8).
struct TopoLinks {
  const LinkSpec* nvlink = nullptr;  // P2P hops
  const LinkSpec* nic = nullptr;     // NET hops other than NET/Socket
  std::string nvlink_from;           // "the default (H100's)", "gpu h200", "request"
  std::string nic_from;
};

struct TopoHopCounts {
  int nvlink = 0, shm = 0, network = 0, unknown = 0;
};

struct TopoChannelExplanation {
  int channel = 0;
  int hops = 0, cross_node_hops = 0;
  TopoHopCounts by_class;
  std::string bottleneck;  // the slowest class on the ring: "network", "shm", "nvlink", "unknown"
  bool rebuilt = false;    // the ring came from the prev/next lines
};

/// What one class of link allows: beta x C / L, C the rings explained, L the most of their hops
/// one link of the class carries (P5 §5.1: every step of a ring waits for its slowest link).
struct TopoBound {
  std::string kind;  // "network", "shm", "nvlink", "gpu_link" (the cap)
  const LinkSpec* link = nullptr;
  double beta_Bps = 0;           // one link's effective bandwidth
  double links_in_parallel = 0;  // C / L
  double busbw_Bps = 0;          // beta x C / L
  int max_hops_per_link = 0;     // L (0 for the cap)
};

struct TopoMeasured {
  int table = 0;  // 1-based, in the text's order
  int first_line = 0, last_line = 0;
  int ranks = 0;
  double bytes = 0;           // the table's largest size
  double busbw_Bps = 0;       // nccl-tests' busbw at that size, out-of-place
  double best_busbw_Bps = 0;  // the highest of the table
};

struct TopoExplanation {
  std::vector<TopoChannelExplanation> channels;
  int rings = 0;  // complete rings explained
  std::string bottleneck;
  std::vector<TopoBound> bounds;
  bool predicted = false;
  double predicted_busbw_Bps = 0;
  struct UsedLink {
    const LinkSpec* spec;
    std::string used_for;
  };
  std::vector<UsedLink> links;
  std::vector<std::string> assumptions;
  bool has_measured = false;
  TopoMeasured measured;
  std::string verdict;  // "matches", "below", "above"; "" without a measurement or a prediction
  double deviation_percent = 0;  // (measured / predicted - 1) x 100
  std::string in_switch;         // above: "nvls", "collnet" when the log names it, else ""
  std::string sentence;
};

/// The lecture's model on one communicator's structure; `tables` are the nccl-tests tables of
/// the same text (parse_nccl_log), for the measured bus bandwidth.
TopoExplanation explain_topology(const TopoComm& comm, const TopologyLog& log, const ParsedLog& tables,
                                 const TopoLinks& links);

/// Work units of reading a log of `bytes` (core/README.md "Limits").
double topology_work_units(double bytes);

}  // namespace commlab
