#include "model/nccl.hpp"

#include "base/concat.hpp"
#include "model/collectives.hpp"
#include "base/units.hpp"

namespace commlab {

using units::us;

std::string protocol_name(NcclProtocol p) {
  switch (p) {
    case NcclProtocol::LL: return "LL";
    case NcclProtocol::LL128: return "LL128";
    case NcclProtocol::Simple: return "Simple";
  }
  return "Simple";
}

std::string nccl_algorithm_name(NcclAlgorithm a) {
  switch (a) {
    case NcclAlgorithm::ring: return "ring";
    case NcclAlgorithm::tree: return "tree";
    case NcclAlgorithm::nvls: return "nvls";
    case NcclAlgorithm::collnet: return "collnet";
  }
  return "ring";
}

// P5 §2.1/§5.4: the H100 generation's NVSwitch reduces (NVLink SHARP, NCCL's NVLS), and
// InfiniBand switches reduce with SHARP (NCCL's CollNet). PCIe switches, RoCE and Ethernet do not.
bool nccl_algorithm_allowed(NcclAlgorithm a, const Link& link) {
  switch (a) {
    case NcclAlgorithm::nvls: return link.id == "nvlink4" || link.id == "nvlink5";
    case NcclAlgorithm::collnet: return link.id == "ib_ndr";
    default: return true;
  }
}

const char* reducing_switch(const Link& link) {
  if (nccl_algorithm_allowed(NcclAlgorithm::nvls, link)) return "nvls";
  if (nccl_algorithm_allowed(NcclAlgorithm::collnet, link)) return "collnet";
  return "none";
}

bool parse_nccl_algorithm(const std::string& name, NcclAlgorithm* out) {
  for (NcclAlgorithm a : {NcclAlgorithm::ring, NcclAlgorithm::tree, NcclAlgorithm::nvls, NcclAlgorithm::collnet}) {
    if (nccl_algorithm_name(a) != name) continue;
    *out = a;
    return true;
  }
  return false;
}

std::string nccl_algorithm_needs(NcclAlgorithm a) {
  return a == NcclAlgorithm::nvls ? "an NVSwitch (link nvlink4 or nvlink5)" : "InfiniBand switches with SHARP (link ib_ndr)";
}

std::string nccl_algorithms_text(const Link& link) {
  std::string out;
  for (NcclAlgorithm a : nccl_algorithms_for(link)) out += (out.empty() ? "\"" : ", \"") + nccl_algorithm_name(a) + "\"";
  return out;
}

std::string nccl_left_out_reason(NcclAlgorithm a, const Link& link) {
  if (nccl_algorithm_allowed(a, link)) return "";
  return a == NcclAlgorithm::nvls ? "needs_nvswitch" : "needs_sharp";
}

std::vector<NcclAlgorithm> nccl_algorithms_for(const Link& link) {
  std::vector<NcclAlgorithm> out;
  for (NcclAlgorithm a : {NcclAlgorithm::ring, NcclAlgorithm::tree, NcclAlgorithm::nvls, NcclAlgorithm::collnet})
    if (nccl_algorithm_allowed(a, link)) out.push_back(a);
  return out;
}

bool nccl_protocol_allowed(NcclAlgorithm a, NcclProtocol p) {
  return a == NcclAlgorithm::ring || a == NcclAlgorithm::tree || p == NcclProtocol::Simple;
}

std::string transport_name(NcclTransport t) {
  switch (t) {
    case NcclTransport::nvlink: return "nvlink";
    case NcclTransport::pci: return "pci";
    case NcclTransport::net: return "net";
  }
  return "net";
}

bool parse_transport(const std::string& name, NcclTransport* out) {
  for (NcclTransport t : {NcclTransport::nvlink, NcclTransport::pci, NcclTransport::net})
    if (transport_name(t) == name) {
      *out = t;
      return true;
    }
  return false;
}

NcclTransport transport_of(const Link& link) {
  if (link.id.rfind("nvlink", 0) == 0 || link.id == "hbm3") return NcclTransport::nvlink;
  if (link.id.rfind("pcie", 0) == 0 || link.id == "nvme") return NcclTransport::pci;
  return NcclTransport::net;
}

// Latencies from NCCL's src/graph/tuning.cc (baseLat and hwLat, in us; order LL, LL128,
// Simple). Bandwidth factors are the protocols' payload shares as "Demystifying NCCL"
// (Hu et al. 2025) describes them (protocol_unit): LL moves 4 B of data per 8 B flag-carrying
// store (50%), LL128 120 B per 128 B line (93.75%), Simple the full link. (tuning.cc discounts LL further,
// to 1/4 for a ring all-reduce, to fit measured kernels; the lecture quotes the 50%.)
ProtocolModel protocol_model(NcclAlgorithm a, NcclProtocol p, NcclTransport t) {
  static const double base_us[2][3] = {{3.6, 10.0, 8.4}, {4.4, 4.4, 0.0}};  // ring, tree
  static const double hw_us[3][2][3] = {
      {{0.47, 1.9, 3.4}, {0.52, 1.2, 28.0}},  // NVLink: ring, tree
      {{1.0, 2.5, 5.7}, {1.0, 1.9, 28.0}},    // PCI
      {{2.7, 4.0, 9.6}, {5.0, 8.5, 50.0}},    // network
  };
  const int ai = a == NcclAlgorithm::tree ? 1 : 0;  // the in-switch algorithms use no table (estimate)
  const int pi = static_cast<int>(p);
  const int ti = static_cast<int>(t);
  const ProtocolUnit u = protocol_unit(p);
  const double factor = u.flag_in_data ? u.payload_bytes / u.unit_bytes : 1.0;
  return {base_us[ai][pi] * us, hw_us[ti][ai][pi] * us, factor};
}

ProtocolUnit protocol_unit(NcclProtocol p) {
  switch (p) {
    case NcclProtocol::LL: return {8, 4, 4, true};          // 4 B of data + 4 B flag, one 8-byte store
    case NcclProtocol::LL128: return {128, 120, 8, true};   // 120 B of data + 8 B flag per 128-byte line
    case NcclProtocol::Simple: return {0, 0, 0, false};     // plain data, a fence, a flag per chunk
  }
  return {0, 0, 0, false};
}

NcclEstimate nccl_allreduce_estimate(NcclAlgorithm a, NcclProtocol p, int k, double D,
                                     const Link& link, NcclTransport transport) {
  if (a == NcclAlgorithm::nvls || a == NcclAlgorithm::collnet) {
    // P5 §5.4's in-switch all-reduce, as the lecture's ideal: D up to the switch and D back, one
    // alpha each way, at the link's full bandwidth (Simple: no flags in the data).
    NcclEstimate e{a, p, 0, 2 * link.alpha_s, link.beta_Bps};
    e.time_s = k <= 1 ? 0 : e.latency_s + D / link.beta_Bps;
    return e;
  }
  const ProtocolModel m = protocol_model(a, p, transport);
  // Ring: 2(k-1) steps carrying 2(k-1)/k D (P5 §5.1). Tree: up and down a depth-ceil(log2 k)
  // tree, each device moving about 2D (NCCL's tree bandwidth ratio of 1/2).
  const int steps = a == NcclAlgorithm::ring ? 2 * (k - 1) : 2 * ceil_log2(k);
  const double wire_bytes = a == NcclAlgorithm::ring ? allreduce_lower_bound_bytes(k, D) : 2.0 * D;
  NcclEstimate e{a, p, 0, 0, link.beta_Bps * m.bandwidth_factor};
  e.latency_s = m.base_latency_s + steps * m.step_latency_s;
  e.time_s = k <= 1 ? 0 : e.latency_s + wire_bytes / e.bandwidth_Bps;
  return e;
}

std::vector<std::pair<NcclAlgorithm, NcclProtocol>> nccl_pairs(const std::vector<NcclAlgorithm>& algorithms) {
  std::vector<std::pair<NcclAlgorithm, NcclProtocol>> out;
  for (NcclAlgorithm a : algorithms)
    for (NcclProtocol p : {NcclProtocol::LL, NcclProtocol::LL128, NcclProtocol::Simple})
      if (nccl_protocol_allowed(a, p)) out.emplace_back(a, p);
  return out;
}

std::string nccl_pair_name(NcclAlgorithm a, NcclProtocol p) {
  return concat({nccl_algorithm_name(a), "/", protocol_name(p)});
}

NcclChoice nccl_select(int k, double D, const Link& link, NcclTransport transport,
                       const std::vector<NcclAlgorithm>& algorithms) {
  NcclChoice choice{};
  bool first = true;
  for (NcclAlgorithm a : algorithms)
    for (NcclProtocol p : {NcclProtocol::LL, NcclProtocol::LL128, NcclProtocol::Simple}) {
      if (!nccl_protocol_allowed(a, p)) continue;
      NcclEstimate e = nccl_allreduce_estimate(a, p, k, D, link, transport);
      choice.candidates.push_back(e);
      if (first || e.time_s < choice.best.time_s) {
        choice.best = e;
        first = false;
      }
    }
  return choice;
}

}  // namespace commlab
