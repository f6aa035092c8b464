// NCCL_DEBUG=INFO logs made from a chosen structure: N nodes of G GPUs, C channels whose rings run
// through each node's GPUs and cross to the next node over one NIC (NET/IB/<n>, one NIC a GPU by
// default), trees (a chain in each node, a binary tree of the nodes' leaders), printed exactly as
// NCCL prints them (NVIDIA/nccl: src/debug.cc's prefix; src/graph/rings.cc dumpLine; the Trees,
// Ring and comm lines of src/init.cc; src/graph/connect.cc's Tree lines; the transports of
// src/transport/{p2p,net,shm}.cc), in the formats of 2.23 and later, 2.19, 2.12, 2.7, 2.4 and
// 2.3, with launcher prefixes, lines of many ranks interleaved, several communicators, and an
// nccl-tests table after them (nccl_synth.hpp). tests/unit_topology.cpp reads them back;
// nccl_synth topology (tests/nccl_synth.cpp) prints one; the benchmark makes its 1,024-rank log.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "nccl_synth.hpp"

namespace commlab_test {

struct TopoSynthComm {
  int ranks = 16, nodes = 2, channels = 4;
  int first_process = 0;    // the process of rank 0; rank r runs in process first_process + r
  int nics = 0;             // NICs a node the rings use; 0: one a GPU
  std::string net = "IB";   // ncclNet's name: "IB", "Socket"
  bool shm = false;         // GPUs of a node talk through SHM instead of P2P
  unsigned long long id = 0x5c1e0b7dfa1b2c3dULL;  // commId (2.16 and later)
};

struct TopoSynthRun {
  std::vector<TopoSynthComm> comms = {TopoSynthComm()};
  std::string format = "2.23";  // "2.23" (and later), "2.19", "2.12", "2.7", "2.4", "2.3"
  std::string launcher;         // "", "openmpi" ([1,R]<stdout>:), "intelmpi" ([R] ), "srun" ( R: )
  bool interleave = true;       // the processes' lines alternate, as they reach a shared file
  bool prev_next = true;        // NCCL_DEBUG_SUBSYS=INIT,GRAPH: every rank's Ring and Tree lines (2.12 and later)
  bool connections = true;
  bool noise = true;            // other INFO lines of an init, and a timestamped line
  bool nvls = false;            // NCCL says NVLS is available and connected
  double table_busbw_Bps = 0;   // > 0: an nccl-tests all-reduce table of comm 0's ranks after the init
  double table_alpha_s = 1e-6;  // its ring step's alpha (1 us: the largest size's busbw near beta)
};

inline bool topo_at_least(const std::string& version, const char* least) {
  auto num = [](const std::string& v) {
    const size_t dot = v.find('.');
    return std::stoi(v.substr(0, dot)) * 100 + std::stoi(v.substr(dot + 1));
  };
  return num(version) >= num(least);
}

// One rank's place: node n, local GPU i; the rings of channel c run through node n's GPUs from
// local c mod G, node after node, so channels c and c + G leave each node from the same GPU.
struct TopoSynthShape {
  const TopoSynthComm& c;
  int G() const { return c.ranks / c.nodes; }
  int next(int ch, int r) const {
    const int g = G(), n = r / g, i = r % g, start = ch % g;
    const int last = (start + g - 1) % g;
    if (i != last) return n * g + (i + 1) % g;
    return ((n + 1) % c.nodes) * g + start;
  }
  int prev(int ch, int r) const {
    for (int q = 0; q < c.ranks; ++q)
      if (next(ch, q) == r) return q;
    return -1;
  }
  int nic(int r) const { return (r % G()) % (c.nics > 0 ? c.nics : G()); }
  // Channels of the second half mirror the node tree (NCCL's double binary tree).
  int node_parent(int ch, int n) const {
    const bool mirror = c.channels > 1 && ch >= c.channels / 2;
    const int m = mirror ? c.nodes - 1 - n : n;
    if (m == 0) return -1;
    const int pm = (m - 1) / 2;
    return mirror ? c.nodes - 1 - pm : pm;
  }
  void tree(int ch, int r, int* parent, int down[3]) const {
    const int g = G(), n = r / g, i = r % g, lead = ch % g, p = (i - lead + g) % g;
    down[0] = down[1] = down[2] = -1;
    int k = 0;
    if (p < g - 1) down[k++] = n * g + (i + 1) % g;
    if (p > 0) {
      *parent = n * g + (i - 1 + g) % g;
      return;
    }
    const int np = node_parent(ch, n);
    *parent = np < 0 ? -1 : np * g + lead;
    for (int m = 0; m < c.nodes; ++m)
      if (m != n && node_parent(ch, m) == n && k < 3) down[k++] = m * g + lead;
  }
};

// dumpLine: before 2.23 " %3d" for at most 20 ranks; since, " %*d" in 128 characters, "..." where cut.
inline std::string topo_ring_line(const std::string& version, const std::string& prefix, const std::vector<int>& ring) {
  std::string line = prefix;
  if (!topo_at_least(version, "2.23")) {
    line += ' ';
    for (size_t i = 0; i < ring.size() && i < 20; ++i) line += format(" %3d", ring[i]);
    return line;
  }
  const int width = static_cast<int>(std::to_string(ring.size() - 1).size());
  for (size_t i = 0; i < ring.size() && line.size() < 127; ++i) line += format(" %*d", width, ring[i]);
  if (line.size() >= 128) line = line.substr(0, 124) + "...";
  return line;
}

inline std::string topo_synth_log(const TopoSynthRun& run) {
  const std::string& f = run.format;
  const TopoSynthComm& world = run.comms[0];
  const int G = world.ranks / world.nodes;
  int processes = 0;
  for (const TopoSynthComm& c : run.comms) processes = std::max(processes, c.first_process + c.ranks);
  std::vector<std::vector<std::string>> lines(static_cast<size_t>(processes));
  auto host = [&](int p) { return format("node-%d", p / G); };
  auto put = [&](int p, const std::string& msg) {
    lines[static_cast<size_t>(p)].push_back(
        format("%s:%d:%d [%d] NCCL INFO ", host(p).c_str(), 41000 + p, 41000 + p, p % G) + msg);
  };
  const char* version = f == "2.23" ? "2.23.4+cuda12.6" : f == "2.19" ? "2.19.3+cuda12.3" : f == "2.12" ? "2.12.12+cuda11.7"
                        : f == "2.7" ? "2.7.8+cuda11.0" : f == "2.4" ? "2.4.8+cuda10.1" : "2.3.7+cuda9.2";
  for (int p = 0; p < processes; ++p) {
    if (run.noise) put(p, format("Bootstrap : Using eth0:10.0.%d.%d<0>", p / G, p % G + 1));
    put(p, std::string("NCCL version ") + version);
    if (run.noise) put(p, "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.0.1<0>");
  }
  for (size_t ci = 0; ci < run.comms.size(); ++ci) {
    const TopoSynthComm& c = run.comms[ci];
    const TopoSynthShape s{c};
    for (int r = 0; r < c.ranks; ++r) {
      const int p = c.first_process + r, dev = p % G;
      const std::string ptr = format("0x%llx", 0x55d0c0de0000ULL + 0x1000ULL * ci + 0x10ULL * p);
      const std::string bus = format("%x000", 0x18 + 0x10 * dev);
      const std::string id = format("0x%llx", c.id + ci);
      if (topo_at_least(f, "2.19"))
        put(p, format("ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s - Init START",
                          ptr.c_str(), r, c.ranks, dev, dev, bus.c_str(), id.c_str()));
      else if (f == "2.4")
        put(p, format("comm %s rank %d nranks %d cudaDev %d nvmlDev %d", ptr.c_str(), r, c.ranks, dev, dev));
      else if (f == "2.3")
        put(p, format("comm %s rank %d nranks %d", ptr.c_str(), r, c.ranks));
      if (topo_at_least(f, "2.23"))
        put(p, format("comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0", ptr.c_str(), r,
                          c.ranks, c.nodes, G, dev));
      if (r == 0)  // rank 0 prints each ring, from itself
        for (int ch = 0; ch < c.channels; ++ch) {
          std::vector<int> ring;
          for (int q = 0, k = 0; k < c.ranks; ++k, q = s.next(ch, q)) ring.push_back(q);
          const std::string prefix = f == "2.3" ? format("Ring %02d :", ch)
                                     : f == "2.4" ? format("Channel %02d :", ch)
                                                  : format("Channel %02d/%02d :", ch, c.channels);
          put(p, topo_ring_line(f, prefix, ring));
        }
      if (f != "2.3") {  // snprintf into line[1024]: at most 1,023 characters after "Trees"
        std::string entries;
        for (int ch = 0; ch < c.channels; ++ch) {
          int up = -1, d[3];
          s.tree(ch, r, &up, d);
          const std::string downs = format("%d/%d/%d", d[0], d[1], d[2]);
          if (f == "2.4") entries += format(" [%d] %d->%d->%s", ch, up, r, downs.c_str());
          else if (f == "2.7") entries += format(" [%d] %s->%d->%d|%d->%d->%s", ch, downs.c_str(), r, up, up, r, downs.c_str());
          else entries += format(" [%d] %s->%d->%d", ch, downs.c_str(), r, up);
        }
        put(p, "Trees" + entries.substr(0, 1023));
      }
      if (run.prev_next && topo_at_least(f, "2.12"))
        for (int ch = 0; ch < c.channels; ++ch)
          put(p, format("Ring %02d : %d -> %d -> %d", ch, s.prev(ch, r), r, s.next(ch, r)));
      if (run.prev_next && topo_at_least(f, "2.12") && c.nodes > 1)
        for (int ch = 0; ch < c.channels; ++ch) {
          int up = -1, d[3];
          s.tree(ch, r, &up, d);
          if (r % G == ch % G) put(p, format("Tree %d : %d -> %d -> %d/%d/%d", ch, up, r, d[0], d[1], d[2]));
        }
      for (int ch = 0; run.connections && ch < c.channels; ++ch) {
        const int to = s.next(ch, r), from = s.prev(ch, r);
        const bool cross_out = to / G != r / G, cross_in = from / G != r / G;
        const std::string me = f == "2.3" || f == "2.4" || topo_at_least(f, "2.19") ? std::to_string(dev) : bus;
        auto id_of = [&](int q) {
          const int d = (c.first_process + q) % G;
          return f == "2.3" || f == "2.4" || topo_at_least(f, "2.19") ? std::to_string(d) : format("%x000", 0x18 + 0x10 * d);
        };
        const std::string chan = f == "2.3" || f == "2.4" ? format("Ring %02d", ch)
                                 : topo_at_least(f, "2.12") ? format("Channel %02d/0", ch)
                                                             : format("Channel %02d", ch);
        const std::string net = format("NET/%s/%d%s", c.net.c_str(), s.nic(r), c.net == "IB" ? "/GDRDMA" : "");
        if (cross_out && f == "2.4")
          put(p, format("%s : %d -> %d [send] via %s", chan.c_str(), r, to, net.c_str()));
        else if (cross_out && f != "2.3")
          put(p, format("%s : %d[%s] -> %d[%s] [send] via %s", chan.c_str(), r, me.c_str(), to, id_of(to).c_str(),
                        net.c_str()));
        if (!cross_out) {
          const std::string intra = c.shm ? (topo_at_least(f, "2.19") ? "SHM/direct/direct" : "direct shared memory")
                                    : topo_at_least(f, "2.19") ? "P2P/CUMEM/read"
                                    : topo_at_least(f, "2.12") ? "P2P/IPC/read" : "P2P/IPC";
          const std::string ichan = c.shm && topo_at_least(f, "2.12") ? format("Channel %02d", ch)
                                    : f == "2.12" ? format("Channel %02d", ch) : chan;
          put(p, format("%s : %d[%s] -> %d[%s] via %s", ichan.c_str(), r, me.c_str(), to, id_of(to).c_str(), intra.c_str()));
        }
        if (cross_in) {
          const std::string rnet = format("NET/%s/%d%s", c.net.c_str(), s.nic(r), c.net == "IB" ? "/GDRDMA" : "");
          if (f == "2.3") put(p, format("%s : %d -> %d via %s", chan.c_str(), from, r, rnet.c_str()));
          else if (f == "2.4") put(p, format("%s : %d -> %d [receive] via %s", chan.c_str(), from, r, rnet.c_str()));
          else
            put(p, format("%s : %d[%s] -> %d[%s] [receive] via %s", chan.c_str(), from, id_of(from).c_str(), r,
                              me.c_str(), rnet.c_str()));
        }
      }
      if (run.noise) {
        put(p, "Connected all rings");
        put(p, "Connected all trees");
        put(p, format("%d coll channels, 0 collnet channels, %d nvls channels, %d p2p channels, 2 p2p channels per peer",
                          c.channels, run.nvls ? 16 : 0, c.channels));
      }
      if (run.nvls) {
        put(p, format("NVLS multicast support is available on dev %d", dev));
        put(p, "Connected NVLS tree");
      }
      if (topo_at_least(f, "2.19"))
        put(p, format("ncclCommInitRank comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s - Init COMPLETE",
                          ptr.c_str(), r, c.ranks, dev, dev, bus.c_str(), id.c_str()));
      else if (f == "2.12")
        put(p, format("comm %s rank %d nranks %d cudaDev %d busId %s - Init COMPLETE", ptr.c_str(), r, c.ranks, dev, bus.c_str()));
      else if (f == "2.7")
        put(p, format("comm %s rank %d nranks %d cudaDev %d busId %s - Init COMPLETE", ptr.c_str(), r, c.ranks, dev, bus.c_str()));
      else if (f == "2.4")
        put(p, format("comm %s rank %d nranks %d cudaDev %d nvmlDev %d - Init COMPLETE", ptr.c_str(), r, c.ranks, dev, dev));
    }
  }
  // The launchers' prefixes, and the order the lines reach the file.
  auto tag = [&](int p) {
    return run.launcher == "openmpi"    ? format("[1,%d]<stdout>:", p)
           : run.launcher == "intelmpi" ? format("[%d] ", p)
           : run.launcher == "srun"     ? format("%2d: ", p)
                                        : std::string();
  };
  std::string out;
  if (run.noise) out += "[2025-06-01 10:00:00] node-0:41000:41000 [0] NCCL INFO NCCL_DEBUG_SUBSYS set by environment to INIT,GRAPH\n";
  if (run.interleave) {
    for (size_t k = 0, left = 1; left; ++k) {
      left = 0;
      for (int p = 0; p < processes; ++p)
        if (k < lines[static_cast<size_t>(p)].size()) {
          out += tag(p) + lines[static_cast<size_t>(p)][k] + "\n";
          ++left;
        }
    }
  } else {
    for (int p = 0; p < processes; ++p)
      for (const std::string& l : lines[static_cast<size_t>(p)]) out += tag(p) + l + "\n";
  }
  if (run.table_busbw_Bps > 0) {
    SynthSpec t;
    t.ranks = world.ranks;
    t.alpha_s = run.table_alpha_s;
    t.beta_Bps = run.table_busbw_Bps;
    t.min_bytes = 1048576;
    t.max_bytes = 1073741824;
    t.noise = 0.002;
    t.prefix = tag(0);
    out += synth_log(t).text;
  }
  return out;
}

}  // namespace commlab_test
