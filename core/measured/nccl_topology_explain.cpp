// The lecture's model on the rings NCCL built (P5 §5.1, §5.5): a ring all-reduce moves at the pace
// of its slowest link, so its bus bandwidth is that link's bandwidth (§5.1); NCCL runs C rings
// (channels) side by side, each carrying busbw / C, so a link that L of their hops cross holds the
// bus bandwidth to beta x C / L. A flat ring across nodes waits for the NICs (§5.5), unless the
// channels spread over as many NICs as a node has (§2.3: one a GPU). Bandwidths are the
// catalogue's effective ones (§0.4: nominal x 0.8).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "base/concat.hpp"
#include "measured/nccl_topology.hpp"

namespace commlab {

namespace {

enum Cls { kNvlink, kShm, kNetwork, kUnknown };
const char* const kClassNames[] = {"nvlink", "shm", "network", "unknown"};

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

Cls class_of(std::string_view transport) {
  if (starts(transport, "P2P")) return kNvlink;
  if (starts(transport, "SHM") || starts(transport, "direct shared memory")) return kShm;
  if (starts(transport, "NET/") || starts(transport, "COLLNET/")) return kNetwork;
  return kUnknown;
}

// The NIC of "NET/IB/3/GDRDMA": 3; -1 when not printed.
int nic_of(std::string_view transport) {
  if (!starts(transport, "NET/")) return -1;
  const size_t slash = transport.find('/', 4);
  if (slash == std::string_view::npos) return -1;
  int n = 0, digits = 0;
  for (size_t i = slash + 1; i < transport.size() && transport[i] >= '0' && transport[i] <= '9' && digits < 6; ++i, ++digits)
    n = n * 10 + (transport[i] - '0');
  return digits ? n : -1;
}

uint64_t hop_key(int channel, int from, int to) {
  return (static_cast<uint64_t>(channel) << 42) | (static_cast<uint64_t>(from) << 21) | static_cast<uint64_t>(to);
}

std::string gbps(double Bps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", Bps / 1e9);
  return buf;
}

std::string number(double x, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

// A node for NIC sharing: the rank's host, or the rank alone when no line names its host.
int64_t node_of(const TopoComm& c, int rank) {
  const int h = topology_host_of(c, rank);
  return h >= 0 ? h : (int64_t{1} << 32) + rank;
}

// The hops one link carries, per direction.
struct Loads {
  std::unordered_map<int64_t, int> out, in;
  int max() const {
    int m = 0;
    for (const auto& [k, v] : out) m = std::max(m, v);
    for (const auto& [k, v] : in) m = std::max(m, v);
    return m;
  }
};

// The first all-reduce table of this rank count: its largest size's bus bandwidth.
bool measure(const TopoComm& c, const ParsedLog& tables, TopoMeasured* m) {
  const double factor = 2.0 * (c.ranks - 1) / c.ranks;  // nccl-tests' all-reduce bus factor
  for (size_t i = 0; i < tables.tables.size(); ++i) {
    const LogTable& t = tables.tables[i];
    if (t.rows.empty() || (!t.collective.empty() && t.collective != "all_reduce") || c.ranks < 2) continue;
    const LogRow* largest = &t.rows[0];
    double best = 0;
    for (const LogRow& r : t.rows) {
      if (r.bytes > largest->bytes) largest = &r;
      best = std::max(best, r.out_of_place.busbw_GBps);
    }
    const LogGroup& g = largest->out_of_place;
    const bool factor_fits = g.algbw_GBps >= 1 && std::fabs(g.busbw_GBps / g.algbw_GBps / factor - 1) < 0.002;
    if (t.ranks > 0 ? t.ranks != c.ranks || (t.collective.empty() && !factor_fits) : !factor_fits) continue;
    *m = {static_cast<int>(i) + 1, t.first_line, t.last_line, c.ranks, largest->bytes, g.busbw_GBps * 1e9, best * 1e9};
    return true;
  }
  return false;
}

}  // namespace

TopoExplanation explain_topology(const TopoComm& c, const TopologyLog& log, const ParsedLog& tables, const TopoLinks& L) {
  TopoExplanation x;
  static const LinkSpec* const pcie = find_link("pcie5");
  static const LinkSpec* const ethernet = find_link("ethernet");
  std::unordered_map<uint64_t, const TopoConnection*> sends, receives;
  std::unordered_map<int64_t, std::unordered_set<int>> nics;  // per node, the NIC indices printed
  for (const TopoConnection& k : c.connections) {
    // 2.3 printed a NET connection at its receiver only, without "[receive]".
    const bool receive = k.direction == "receive" || (k.direction.empty() && starts(k.transport, "NET/"));
    (receive ? receives : sends).emplace(hop_key(k.channel, k.from, k.to), &k);
    const int nic = nic_of(k.transport);
    if (nic >= 0) nics[node_of(c, receive ? k.to : k.from)].insert(nic);
  }
  Loads nvlink, shm, net;
  std::unordered_map<int64_t, int> net_unknown_out, net_unknown_in, net_total_out, net_total_in;
  bool by_host = false, unknown_hops = false, socket = false, cut = false;
  for (const TopoChannel& ch : c.channels) {
    const std::vector<int>& ring = ch.complete ? ch.ring : ch.rebuilt;
    if (ring.empty()) {
      cut = true;
      continue;
    }
    TopoChannelExplanation e;
    e.channel = ch.channel;
    e.rebuilt = !ch.complete;
    const size_t k = ring.size();
    for (size_t i = 0; k > 1 && i < k; ++i) {
      const int a = ring[i], b = ring[(i + 1) % k];
      const auto s = sends.find(hop_key(ch.channel, a, b));
      const auto r = receives.find(hop_key(ch.channel, a, b));
      const TopoConnection* conn = s != sends.end() ? s->second : r != receives.end() ? r->second : nullptr;
      const int ha = topology_host_of(c, a), hb = topology_host_of(c, b);
      Cls cls = conn ? class_of(conn->transport) : kUnknown;
      if (!conn && ha >= 0 && hb >= 0) {
        cls = ha != hb ? kNetwork : kNvlink;
        by_host = true;
      }
      ++e.hops;
      e.cross_node_hops += (ha >= 0 && hb >= 0 && ha != hb) || cls == kNetwork;
      int* counts[] = {&e.by_class.nvlink, &e.by_class.shm, &e.by_class.network, &e.by_class.unknown};
      ++*counts[cls];
      unknown_hops = unknown_hops || cls == kUnknown;
      if (cls == kNvlink || cls == kShm) {
        Loads& l = cls == kNvlink ? nvlink : shm;
        ++l.out[a];
        ++l.in[b];
      } else if (cls == kNetwork) {
        socket = socket || (conn && starts(conn->transport, "NET/Socket"));
        const int64_t na = node_of(c, a), nb = node_of(c, b);
        const int out_nic = s != sends.end() ? nic_of(s->second->transport) : -1;
        const int in_nic = r != receives.end() ? nic_of(r->second->transport) : -1;
        ++net_total_out[na];
        ++net_total_in[nb];
        if (out_nic >= 0) ++net.out[na * 4096 + out_nic];
        else ++net_unknown_out[na];
        if (in_nic >= 0) ++net.in[nb * 4096 + in_nic];
        else ++net_unknown_in[nb];
      }
    }
    if (k < 2) continue;
    x.channels.push_back(e);
  }
  x.rings = static_cast<int>(x.channels.size());
  const LinkSpec* nic = socket ? ethernet : L.nic;
  const double beta[] = {effective_link(*L.nvlink).beta_Bps, effective_link(*pcie).beta_Bps, effective_link(*nic).beta_Bps};
  // Where a hop's NIC is not printed, the node's hops are taken as spread over its NICs: those
  // its lines name, else one a GPU on it (P5 §2.3).
  int net_max = net.max();
  bool nics_assumed = false;
  for (int dir = 0; dir < 2; ++dir)
    for (const auto& [node, unknown] : dir ? net_unknown_in : net_unknown_out) {
      int count = 0;
      const auto it = nics.find(node);
      if (it != nics.end()) count = static_cast<int>(it->second.size());
      if (!count) {
        nics_assumed = true;
        count = node < (int64_t{1} << 32) ? static_cast<int>(c.nodes[static_cast<size_t>(node)].ranks.size()) : 1;
      }
      const int total = (dir ? net_total_in : net_total_out)[node];
      net_max = std::max(net_max, (total + count - 1) / count);
      (void)unknown;
    }
  const int C = x.rings;
  const int maxes[] = {nvlink.max(), shm.max(), net_max};
  const LinkSpec* specs[] = {L.nvlink, pcie, nic};
  for (int cls : {kNetwork, kShm, kNvlink})
    if (maxes[cls] > 0)
      x.bounds.push_back({kClassNames[cls], specs[cls], beta[cls], static_cast<double>(C) / maxes[cls],
                          beta[cls] * C / maxes[cls], maxes[cls]});
  const bool any_known = !x.bounds.empty();
  if (any_known) x.bounds.push_back({"gpu_link", L.nvlink, beta[kNvlink], 1, beta[kNvlink], 0});
  for (TopoChannelExplanation& e : x.channels) {
    const int n[] = {e.by_class.nvlink, e.by_class.shm, e.by_class.network};
    int slowest = -1;
    for (int cls : {kNetwork, kShm, kNvlink})
      if (n[cls] > 0 && (slowest < 0 || beta[cls] < beta[slowest])) slowest = cls;
    e.bottleneck = kClassNames[slowest < 0 ? kUnknown : slowest];
  }
  const TopoBound* binding = nullptr;
  for (const TopoBound& b : x.bounds)
    if (!binding || b.busbw_Bps < binding->busbw_Bps) binding = &b;
  x.predicted = binding != nullptr;
  x.bottleneck = !binding ? "unknown" : binding->kind == "gpu_link" ? "nvlink" : binding->kind;
  if (binding) x.predicted_busbw_Bps = binding->busbw_Bps;
  // The catalogue entries priced, and every assumption behind the figure.
  x.links.push_back({L.nvlink, "P2P hops (NVLink), and the cap of one GPU's link"});
  if (maxes[kNetwork] > 0) x.links.push_back({nic, socket ? "NET/Socket hops (TCP)" : "NET hops between nodes, one NIC each"});
  if (maxes[kShm] > 0) x.links.push_back({pcie, "SHM hops (through host memory over PCIe)"});
  std::vector<std::string>& a = x.assumptions;
  a.push_back("bandwidths are the catalogue's effective ones: nominal x 0.8, per GPU and direction (P5 §0.4)");
  a.push_back(concat({"P2P hops run over NVLink: ", L.nvlink->id, " (", L.nvlink_from, ")"}));
  if (maxes[kNetwork] > 0)
    a.push_back(socket ? concat({"NET/Socket hops run over TCP: ", nic->id})
                       : concat({"NET hops run over one NIC each: ", nic->id, " (", L.nic_from, ")"}));
  if (maxes[kShm] > 0) a.push_back("SHM hops go through host memory over PCIe: pcie5");
  if (maxes[kNetwork] > 0) {
    std::string counted;
    for (size_t h = 0; h < c.hosts.size() && h < 8; ++h) {
      const auto it = nics.find(static_cast<int64_t>(h));
      counted += concat({h ? ", " : "", c.hosts[h], " ", std::to_string(it == nics.end() ? 0 : it->second.size())});
    }
    if (c.hosts.size() > 8) counted += ", ...";
    a.push_back(concat({"NICs a node: the distinct NET/<net>/<n> indices its lines print",
                        counted.empty() ? "" : concat({" (", counted, ")"}),
                        nics_assumed ? "; one a GPU (P5 §2.3) on a node whose lines print none" : ""}));
  }
  if (by_host) a.push_back("a hop without a connection line: NVLink between ranks of one host, the network between hosts");
  if (c.hosts.empty() && maxes[kNetwork] > 0)
    a.push_back("no host printed: each rank counted as a node of its own, so NICs shared by GPUs of a node are not seen");
  if (unknown_hops) a.push_back("hops of unknown transport (no connection line, no host) are left out of the bounds");
  a.push_back("the channels carry equal shares: a link that L of the C rings' hops cross holds the bus bandwidth to "
              "beta x C / L (P5 §5.1: a ring moves at its slowest link's pace)");
  if (any_known) a.push_back("capped at one GPU's NVLink bandwidth (the GPU's own link, P5 §2.1)");
  if (cut) a.push_back("rings cut by NCCL and not rebuilt (no prev -> rank -> next lines) are left out; the rings explained stand for them");
  x.has_measured = measure(c, tables, &x.measured);
  if (x.has_measured)
    a.push_back(concat({"measured: nccl-tests' out-of-place busbw at the largest size of table ", std::to_string(x.measured.table),
                        " (lines ", std::to_string(x.measured.first_line), "-", std::to_string(x.measured.last_line), ")"}));
  // The verdict and its sentence, from the numbers.
  std::string why;
  if (binding && x.bottleneck == "network")
    why = concat({"each ring crosses between nodes over ", nic->label, " (", gbps(beta[kNetwork]), " GB/s a NIC), ",
                  number(binding->links_in_parallel, "%.3g"), " NICs' worth in parallel for ", std::to_string(C), " rings"});
  else if (binding && x.bottleneck == "shm")
    why = concat({"rings go through host memory over ", pcie->label, " (", gbps(beta[kShm]), " GB/s)"});
  else if (binding)
    why = concat({"the rings' slowest link is NVLink (", L.nvlink->label, ", ", gbps(beta[kNvlink]), " GB/s a GPU)"});
  if (!binding) {
    x.sentence = C == 0 ? "No complete ring to apply the model to: NCCL cut the ring lines and no rank's 'Ring 00 : prev -> "
                          "rank -> next' lines rebuild them (NCCL_DEBUG_SUBSYS=INIT,GRAPH prints those)."
                        : "No hop of a known transport: the log prints neither connection lines nor hosts.";
    return x;
  }
  const double P = x.predicted_busbw_Bps;
  if (!x.has_measured) {
    x.sentence = concat({"The model predicts ", gbps(P), " GB/s bus bandwidth: ", why, "."});
    return x;
  }
  const double M = x.measured.busbw_Bps, ratio = M / P;
  x.deviation_percent = (ratio - 1) * 100;
  const std::string measured = concat({"Measured ", gbps(M), " GB/s bus bandwidth at ", gbps(x.measured.bytes), " GB"});
  if (std::fabs(ratio - 1) <= 0.1 + 1e-12) {
    x.verdict = "matches";
    x.sentence = concat({measured, " is within 10% of the ", gbps(P), " GB/s the model predicts (",
                         number(x.deviation_percent, "%+.1f"), "%): ", why, "."});
  } else if (ratio < 1) {
    x.verdict = "below";
    x.sentence = concat({measured, " is ", number(-x.deviation_percent, "%.1f"), "% below the ", gbps(P),
                         " GB/s the model predicts: ", why, "; the machine does not reach its links' bandwidth."});
  } else {
    x.verdict = "above";
    const TopoInSwitchLine* said = nullptr;
    for (const char* kind : {"nvls", "collnet", "nccl_algo"})
      for (const TopoInSwitchLine& s : log.in_switch)
        if (!said && s.says == kind) said = &s;
    if (said && said->says == "nccl_algo")
      x.in_switch = said->text.find("NVLS") != std::string::npos ? "nvls"
                    : said->text.find("CollNet") != std::string::npos ? "collnet" : "";
    else if (said)
      x.in_switch = said->says;
    const std::string where = said ? concat({" (line ", std::to_string(said->line), ")"}) : "";
    x.sentence = concat(
        {measured, " is ", number(x.deviation_percent, "%.1f"), "% above the ", gbps(P),
         " GB/s the model predicts, more than a ring over these links carries: ",
         x.in_switch == "nvls"      ? concat({"the log shows NVLS", where, ": NVSwitch reduces in the switch (P5 §5.4)"})
         : x.in_switch == "collnet" ? concat({"the log shows CollNet", where, ": the network's switches reduce (SHARP, P5 §5.4)"})
                                    : "the log names no NVLS or CollNet; a faster link than assumed, or in-switch reduction, would explain it",
         "."});
  }
  return x;
}

}  // namespace commlab
