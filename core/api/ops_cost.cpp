// Ops of the cost model: links, transfer, allreduce, collective, nccl (P5 §2-5); crossover has a
// file of its own (ops_crossover.cpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "base/concat.hpp"
#include "model/collectives.hpp"
#include "base/error.hpp"
#include "model/nccl.hpp"
#include "api/ops.hpp"
#include "base/work_meter.hpp"
#include "model/link_field.hpp"
#include "base/json_writer.hpp"

namespace commlab {

void write_cost_members(JsonWriter& w, const CollectiveCost& c) {
  w.member("algorithm", c.algorithm)
      .member("alpha_time_s", c.alpha_time_s)
      .member("beta_time_s", c.time_s - c.alpha_time_s)
      .member("bytes_sent_per_device", c.bytes_sent_per_device);
  if (c.chunks > 1) w.member("chunks", c.chunks);
  w.member("steps", c.steps).member("time_s", c.time_s);
}

void write_cost(JsonWriter& w, const CollectiveCost& c) {
  w.begin_object();
  write_cost_members(w, c);
  w.end_object();
}

void write_link(JsonWriter& w, const char* key, const Link& l) {
  w.key(key);
  w.begin_object();
  w.member("alpha_s", l.alpha_s).member("beta_Bps", l.beta_Bps).member("id", l.id);
  w.end_object();
}

// A statement names a catalogue link only when alpha and beta are its effective figures
// (exercises/README.md "Variants"); exercises written as data ask this.
void op_link_match(Request& r, JsonWriter& w) {
  const double alpha_s = r.number("alpha_s", Range{0, 1, false, "s"});
  const double beta_Bps = r.number("beta_Bps", Range{0, 1e16, false, "B/s"});
  r.finish();
  for (const LinkSpec& spec : link_catalogue()) {
    const Link e = effective_link(spec);
    if (std::fabs(e.alpha_s - alpha_s) <= 1e-9 * e.alpha_s && std::fabs(e.beta_Bps - beta_Bps) <= 1e-9 * e.beta_Bps) {
      w.member("matched", true).member("id", spec.id).member("label", spec.label);
      return;
    }
  }
  // No null in an answer (README "Errors"): no match is said by "matched" and empty names.
  w.member("matched", false).member("id", "").member("label", "");
}

void op_links(Request& r, JsonWriter& w) {
  const double eff = r.number_or("efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""});
  r.finish();
  w.objects("links", link_catalogue(), [&](const LinkSpec& s) {
    const Link l = effective_link(s, eff);
    w.member("id", s.id).member("label", s.label).member("scope", s.scope).member("nominal_Bps", s.nominal_Bps)
        .member("beta_Bps", l.beta_Bps).member("alpha_s", l.alpha_s).member("n_half_bytes", n_half_bytes(l));
    // The switch that reduces on this link (P5 §5.4), as NCCL names its algorithm, or "none".
    w.member("reducing_switch", reducing_switch(l));
  });
  w.member("efficiency", eff);
}

// The calculator ops below write their answers (api.cpp: text, or a tree for evaluate(json)),
// members in key order where that is easy (the text writer sorts the rest).
void op_transfer(Request& r, JsonWriter& w) {
  const Link link = read_link(r, "link");
  const double bytes = r.bytes("bytes");
  r.finish();
  w.member("alpha_s", link.alpha_s)
      .member("bandwidth_fraction", bandwidth_fraction(link, bytes))
      .member("beta_Bps", link.beta_Bps)
      .member("bytes", bytes)
      .member("latency_bound", bytes < n_half_bytes(link));
  write_link(w, "link", link);
  w.member("n_half_bytes", n_half_bytes(link)).member("time_s", transfer_time_s(link, bytes));
}

// Allowed names, built once (not on every request).
const std::vector<std::string>& allreduce_names(bool with_extra) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (AllreduceAlgorithm a : allreduce_algorithms()) v.push_back(algorithm_name(a));
    return v;
  }();
  static const std::vector<std::string> extra = [] {
    std::vector<std::string> v = names;
    v.push_back("hierarchical");
    v.push_back("auto");
    return v;
  }();
  return with_extra ? extra : names;
}

void op_allreduce(Request& r, JsonWriter& w) {
  const std::string algorithm = r.name("algorithm", allreduce_names(true));
  const double bytes = r.bytes("bytes");

  if (algorithm == "hierarchical") {
    const int nodes = r.integer("nodes", 1, 65536);
    const int gpus = r.integer("gpus_per_node", 1, 1024);
    const Link intra = read_link(r, "intra_link");
    const Link inter = read_link(r, "inter_link");
    AllreduceAlgorithm inter_algo;
    parse_allreduce_algorithm(r.name_or("inter_algorithm", "ring", allreduce_names(false)), &inter_algo);
    r.finish();
    const HierarchicalCost h = hierarchical_allreduce_cost(nodes, gpus, bytes, intra, inter, inter_algo);
    write_cost_members(w, h.total);
    w.member("bytes", bytes)
        .member("devices", nodes * gpus)
        .member("lower_bound_bytes", allreduce_lower_bound_bytes(nodes * gpus, bytes));
    w.key("phases");
    w.begin_array();
    for (const CollectiveCost* c : {&h.intra_reduce_scatter, &h.inter_allreduce, &h.intra_allgather})
      write_cost(w, *c);
    w.end_array();
    return;
  }

  const int devices = r.integer("devices", 1, kMaxDevices);
  const Link link = read_link(r, "link");
  if (algorithm == "auto") {
    const bool in_switch = r.boolean_or("in_switch_available", false);
    r.finish();
    const AutoChoice choice = allreduce_auto(devices, bytes, link, in_switch);
    write_cost_members(w, choice.cost);
    w.key("candidates");
    w.begin_array();
    for (const CollectiveCost& c : choice.candidates) write_cost(w, c);
    w.end_array();
  } else {
    AllreduceAlgorithm algo;
    parse_allreduce_algorithm(algorithm, &algo);
    const int chunks = algo == AllreduceAlgorithm::double_binary_tree
                           ? r.integer_or("chunks", 0, 0, 4096)
                           : 0;
    r.finish();
    write_cost_members(w, allreduce_cost(algo, devices, bytes, link, chunks));
  }
  w.member("bytes", bytes).member("devices", devices);
  write_link(w, "link", link);
  w.member("lower_bound_bytes", allreduce_lower_bound_bytes(devices, bytes));
}

void op_collective(Request& r, JsonWriter& w) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (Collective c : collectives()) v.push_back(collective_name(c));
    return v;
  }();
  Collective c;
  parse_collective(r.name("collective", names), &c);
  const std::vector<std::string> algos = collective_algorithms(c);
  const std::string algorithm = r.name_or("algorithm", algos.front(), algos);
  const int devices = c == Collective::sendrecv ? r.integer_or("devices", 2, 2, 2)
                                                 : r.integer("devices", 1, kMaxDevices);
  const double bytes = r.bytes("bytes");
  const Link link = read_link(r, "link");
  r.finish();
  write_cost_members(w, collective_cost(c, algorithm, devices, bytes, link));
  w.member("bytes", bytes).member("collective", collective_name(c)).member("devices", devices);
  write_link(w, "link", link);
  w.member("lower_bound_bytes", collective_lower_bound_bytes(c, devices, bytes));
}

namespace {
void write_estimate_members(JsonWriter& w, const NcclEstimate& e) {
  w.member("algorithm", nccl_algorithm_name(e.algorithm))
      .member("bandwidth_Bps", e.bandwidth_Bps)
      .member("latency_s", e.latency_s)
      .member("protocol", protocol_name(e.protocol))
      .member("time_s", e.time_s);
}
}  // namespace

namespace {
}  // namespace

void op_nccl(Request& r, JsonWriter& w) {
  const int devices = r.integer("devices", 1, kMaxDevices);
  const double bytes = r.bytes("bytes");
  const Link link = read_link(r, "link");
  NcclTransport transport = transport_of(link);
  static const std::vector<std::string> transports = {"nvlink", "pci", "net"};
  parse_transport(r.name_or("transport", transport_name(transport), transports), &transport);
  // NCCL weighs every algorithm the hardware allows (P5 §5.6): NVLS only over NVSwitch, CollNet
  // only over InfiniBand's SHARP switches.
  std::vector<NcclAlgorithm> algorithms = nccl_algorithms_for(link);
  static const char* kAllowed = "a non-empty array of \"ring\", \"tree\", \"nvls\" (NVLink 4 and 5), \"collnet\" (ib_ndr)";
  if (r.has("algorithms")) {
    const json& list = r.raw("algorithms");
    if (!list.is_array() || list.empty())
      refuse("invalid_type", {"field 'algorithms': value ", show_value(list), " is not allowed; allowed: ", kAllowed});
    algorithms.clear();
    for (const json& a : list) {
      NcclAlgorithm x;
      if (!a.is_string() || !parse_nccl_algorithm(a.get<std::string>(), &x))
        refuse("unknown_value", {"field 'algorithms': unknown value ", show_value(a), "; allowed: ", kAllowed});
      if (!nccl_algorithm_allowed(x, link))
        refuse("invalid_request", {"field 'algorithms': ", show_value(a), " needs ", nccl_algorithm_needs(x), "; link '",
                                   link.id, "' has none; allowed here: ", nccl_algorithms_text(link)});
      algorithms.push_back(x);
    }
  }
  r.finish();
  const NcclChoice choice = nccl_select(devices, bytes, link, transport, algorithms);
  write_estimate_members(w, choice.best);
  w.member("bytes", bytes);
  w.key("candidates");
  w.begin_array();
  for (const NcclEstimate& e : choice.candidates) {
    w.begin_object();
    write_estimate_members(w, e);
    w.end_object();
  }
  w.end_array();
  w.member("devices", devices).member("transport", transport_name(transport));
  // What the hardware leaves out, and why (the page says it beside the choice).
  w.key("left_out");
  w.begin_array();
  for (NcclAlgorithm a : {NcclAlgorithm::nvls, NcclAlgorithm::collnet}) {
    const std::string why = nccl_left_out_reason(a, link);
    if (why.empty()) continue;
    w.begin_object();
    w.member("algorithm", nccl_algorithm_name(a)).member("reason", why);
    w.end_object();
  }
  w.end_array();
}

// What each NCCL protocol is (P5 §5.6): its latencies on this link's transport, the unit that
// carries a flag (LL: 8 B store, 4 B of data; LL128: 128 B line, 120 B of data; Simple: none,
// a fence) and so the share of the link's bandwidth that carries payload.
void op_nccl_protocols(Request& r, JsonWriter& w) {
  const Link link = read_link(r, "link");
  NcclTransport transport = transport_of(link);
  static const std::vector<std::string> transports = {"nvlink", "pci", "net"};
  parse_transport(r.name_or("transport", transport_name(transport), transports), &transport);
  static const std::vector<std::string> algos = {"ring", "tree"};
  const NcclAlgorithm algorithm = r.name_or("algorithm", "ring", algos) == "ring" ? NcclAlgorithm::ring : NcclAlgorithm::tree;
  r.finish();
  w.member("algorithm", nccl_algorithm_name(algorithm));
  write_link(w, "link", link);
  w.key("protocols");
  w.begin_array();
  for (NcclProtocol p : {NcclProtocol::LL, NcclProtocol::LL128, NcclProtocol::Simple}) {
    const ProtocolModel m = protocol_model(algorithm, p, transport);
    const ProtocolUnit u = protocol_unit(p);
    w.begin_object();
    w.member("bandwidth_Bps", link.beta_Bps * m.bandwidth_factor)
        .member("base_latency_s", m.base_latency_s)
        .member("flag_bytes", u.flag_bytes)
        .member("flag_in_data", u.flag_in_data)
        .member("payload_bytes", u.payload_bytes)
        .member("payload_share", m.bandwidth_factor)
        .member("protocol", protocol_name(p))
        .member("step_latency_s", m.step_latency_s)
        .member("unit_bytes", u.unit_bytes);
    w.end_object();
  }
  w.end_array();
  w.member("transport", transport_name(transport));
}

}  // namespace commlab
