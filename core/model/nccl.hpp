// NCCL's protocols and its choice of (algorithm, protocol) (P5 §5.6, code 03 demo 4).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "model/links.hpp"

namespace commlab {

enum class NcclProtocol { LL, LL128, Simple };
/// NCCL's all-reduce algorithms (P5 §5.6): ring, tree, and the two that reduce in a switch:
/// NVLS (NVSwitch's NVLink SHARP) and CollNet (an InfiniBand switch's SHARP).
enum class NcclAlgorithm { ring, tree, nvls, collnet };
/// Which of NCCL's hardware latency tables applies (tuning.cc: NVLink, PCI, network).
enum class NcclTransport { nvlink, pci, net };

std::string protocol_name(NcclProtocol p);
std::string nccl_algorithm_name(NcclAlgorithm a);
std::string transport_name(NcclTransport t);
bool parse_transport(const std::string& name, NcclTransport* out);
/// The transport a catalogue link uses: NVLink, PCIe, or the network.
NcclTransport transport_of(const Link& link);

/// How a protocol's receiver knows data has arrived (P5 §5.6, "Demystifying NCCL"): LL and
/// LL128 put a flag into every store or line, so the receiver polls the data itself (one hop, no
/// fence); Simple writes plain data, then a memory fence and one flag per chunk.
struct ProtocolUnit {
  double unit_bytes;     // one store (LL: 8 B) or line (LL128: 128 B) with its flag; 0 for Simple
  double payload_bytes;  // data in that unit (LL: 4 B, LL128: 120 B); 0 for Simple
  double flag_bytes;     // flag in that unit (LL: 4 B, LL128: 8 B); 0 for Simple
  bool flag_in_data;     // false: a fence, then a flag per chunk (Simple)
};
ProtocolUnit protocol_unit(NcclProtocol p);

/// What a protocol costs: a fixed latency per call, a latency per pipeline step, and the
/// share of the link bandwidth that carries payload (payload / unit bytes; 1 for Simple).
struct ProtocolModel {
  double base_latency_s;
  double step_latency_s;
  double bandwidth_factor;
};
ProtocolModel protocol_model(NcclAlgorithm a, NcclProtocol p, NcclTransport t);

/// One (algorithm, protocol) estimate of an all-reduce.
struct NcclEstimate {
  NcclAlgorithm algorithm;
  NcclProtocol protocol;
  double time_s;
  double latency_s;     // base + steps x step latency
  double bandwidth_Bps; // link beta x protocol factor
};

/// All-reduce of D bytes on k devices under one (algorithm, protocol) (P5 §5.6).
NcclEstimate nccl_allreduce_estimate(NcclAlgorithm a, NcclProtocol p, int devices, double bytes,
                                     const Link& link, NcclTransport transport);
/// The in-switch algorithm a link's switch offers (P5 §5.4): NVLS on NVSwitch (NVLink 4 and 5),
/// CollNet on InfiniBand's SHARP switches; none on PCIe, Ethernet or RoCE.
bool nccl_algorithm_allowed(NcclAlgorithm a, const Link& link);
/// The in-switch algorithm of `link`'s switch, as NCCL names it: "nvls", "collnet", or "none"
/// (a switch that does not reduce: PCIe, RoCE, Ethernet; P5 §5.4).
const char* reducing_switch(const Link& link);
/// An NCCL algorithm by its name ("ring", "tree", "nvls", "collnet"); false for another name.
bool parse_nccl_algorithm(const std::string& name, NcclAlgorithm* out);
/// What an in-switch algorithm needs, for a refusal: "an NVSwitch (link nvlink4 or nvlink5)".
std::string nccl_algorithm_needs(NcclAlgorithm a);
/// The names of nccl_algorithms_for(link), for a refusal: "\"ring\", \"tree\"".
std::string nccl_algorithms_text(const Link& link);
/// Why `a` is not weighed on `link`: "needs_nvswitch" or "needs_sharp"; "" when it is allowed.
std::string nccl_left_out_reason(NcclAlgorithm a, const Link& link);
/// ring, tree and whichever in-switch algorithm the link's switch offers.
std::vector<NcclAlgorithm> nccl_algorithms_for(const Link& link);
/// NVLS and CollNet run only the Simple protocol.
bool nccl_protocol_allowed(NcclAlgorithm a, NcclProtocol p);

/// Every enabled pair, and the cheapest, as NCCL's tuner chooses per call.
struct NcclChoice {
  NcclEstimate best;
  std::vector<NcclEstimate> candidates;
};
/// The (algorithm, protocol) pairs NCCL's tuner weighs for `algorithms`, in nccl_select's order
/// (so a tie goes to the same pair).
std::vector<std::pair<NcclAlgorithm, NcclProtocol>> nccl_pairs(const std::vector<NcclAlgorithm>& algorithms);
/// "ring/LL128": a pair as the page and the `crossover` op name it.
std::string nccl_pair_name(NcclAlgorithm a, NcclProtocol p);
NcclChoice nccl_select(int devices, double bytes, const Link& link, NcclTransport transport,
                       const std::vector<NcclAlgorithm>& algorithms);

}  // namespace commlab
