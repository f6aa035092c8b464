// Ops of the cost model: links, transfer, allreduce, collective, nccl (P5 §2-5).
#include <cmath>

#include "model/collectives.hpp"
#include "base/error.hpp"
#include "model/nccl.hpp"
#include "api/ops.hpp"
#include "model/link_field.hpp"

namespace commlab {

json cost_json(const CollectiveCost& c) {
  json j = {{"algorithm", c.algorithm},
            {"time_s", c.time_s},
            {"steps", c.steps},
            {"bytes_sent_per_device", c.bytes_sent_per_device},
            {"alpha_time_s", c.alpha_time_s},
            {"beta_time_s", c.time_s - c.alpha_time_s}};
  if (c.chunks > 1) j["chunks"] = c.chunks;
  return j;
}

namespace {
json link_json(const Link& l) {
  return {{"id", l.id}, {"alpha_s", l.alpha_s}, {"beta_Bps", l.beta_Bps}};
}
}  // namespace

// A statement names a catalogue link only when alpha and beta are its effective figures
// (SPEC "Variants"); exercises written as data ask this.
json op_link_match(Request& r) {
  const double alpha_s = r.number("alpha_s", Range{0, 1, false, "s"});
  const double beta_Bps = r.number("beta_Bps", Range{0, 1e16, false, "B/s"});
  r.finish();
  for (const LinkSpec& spec : link_catalogue()) {
    const Link e = effective_link(spec);
    if (std::fabs(e.alpha_s - alpha_s) <= 1e-9 * e.alpha_s && std::fabs(e.beta_Bps - beta_Bps) <= 1e-9 * e.beta_Bps)
      return {{"matched", true}, {"id", spec.id}, {"label", spec.label}};
  }
  // No null in an answer (README "Errors"): no match is said by "matched" and empty names.
  return {{"matched", false}, {"id", ""}, {"label", ""}};
}

json op_links(Request& r) {
  const double eff = r.number_or("efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""});
  r.finish();
  json list = json::array();
  for (const LinkSpec& s : link_catalogue()) {
    const Link l = effective_link(s, eff);
    list.push_back({{"id", s.id},
                    {"label", s.label},
                    {"scope", s.scope},
                    {"nominal_Bps", s.nominal_Bps},
                    {"beta_Bps", l.beta_Bps},
                    {"alpha_s", l.alpha_s},
                    {"n_half_bytes", n_half_bytes(l)}});
  }
  return {{"links", list}, {"efficiency", eff}};
}

json op_transfer(Request& r) {
  const Link link = read_link(r, "link");
  const double bytes = r.bytes("bytes");
  r.finish();
  return {{"link", link_json(link)},
          {"bytes", bytes},
          {"time_s", transfer_time_s(link, bytes)},
          {"alpha_s", link.alpha_s},
          {"beta_Bps", link.beta_Bps},
          {"n_half_bytes", n_half_bytes(link)},
          {"bandwidth_fraction", bandwidth_fraction(link, bytes)},
          {"latency_bound", bytes < n_half_bytes(link)}};
}

json op_allreduce(Request& r) {
  std::vector<std::string> names;
  for (AllreduceAlgorithm a : allreduce_algorithms()) names.push_back(algorithm_name(a));
  std::vector<std::string> with_extra = names;
  with_extra.push_back("hierarchical");
  with_extra.push_back("auto");
  const std::string algorithm = r.name("algorithm", with_extra);
  const double bytes = r.bytes("bytes");

  if (algorithm == "hierarchical") {
    const int nodes = r.integer("nodes", 1, 65536);
    const int gpus = r.integer("gpus_per_node", 1, 1024);
    const Link intra = read_link(r, "intra_link");
    const Link inter = read_link(r, "inter_link");
    AllreduceAlgorithm inter_algo;
    parse_allreduce_algorithm(r.name_or("inter_algorithm", "ring", names), &inter_algo);
    r.finish();
    const HierarchicalCost h = hierarchical_allreduce_cost(nodes, gpus, bytes, intra, inter, inter_algo);
    json out = cost_json(h.total);
    out["devices"] = nodes * gpus;
    out["bytes"] = bytes;
    out["phases"] = {cost_json(h.intra_reduce_scatter), cost_json(h.inter_allreduce),
                     cost_json(h.intra_allgather)};
    out["lower_bound_bytes"] = allreduce_lower_bound_bytes(nodes * gpus, bytes);
    return out;
  }

  const int devices = r.integer("devices", 1, kMaxDevices);
  const Link link = read_link(r, "link");
  json out;
  if (algorithm == "auto") {
    const bool in_switch = r.boolean_or("in_switch_available", false);
    r.finish();
    const AutoChoice choice = allreduce_auto(devices, bytes, link, in_switch);
    out = cost_json(choice.cost);
    json candidates = json::array();
    for (const CollectiveCost& c : choice.candidates) candidates.push_back(cost_json(c));
    out["candidates"] = candidates;
  } else {
    AllreduceAlgorithm algo;
    parse_allreduce_algorithm(algorithm, &algo);
    const int chunks = algo == AllreduceAlgorithm::double_binary_tree
                           ? r.integer_or("chunks", 0, 0, 4096)
                           : 0;
    r.finish();
    out = cost_json(allreduce_cost(algo, devices, bytes, link, chunks));
  }
  out["devices"] = devices;
  out["bytes"] = bytes;
  out["link"] = link_json(link);
  out["lower_bound_bytes"] = allreduce_lower_bound_bytes(devices, bytes);
  return out;
}

json op_collective(Request& r) {
  std::vector<std::string> names;
  for (Collective c : collectives()) names.push_back(collective_name(c));
  Collective c;
  parse_collective(r.name("collective", names), &c);
  const std::vector<std::string> algos = collective_algorithms(c);
  const std::string algorithm = r.name_or("algorithm", algos.front(), algos);
  const int devices = c == Collective::sendrecv ? r.integer_or("devices", 2, 2, 2)
                                                 : r.integer("devices", 1, kMaxDevices);
  const double bytes = r.bytes("bytes");
  const Link link = read_link(r, "link");
  r.finish();
  json out = cost_json(collective_cost(c, algorithm, devices, bytes, link));
  out["collective"] = collective_name(c);
  out["devices"] = devices;
  out["bytes"] = bytes;
  out["link"] = link_json(link);
  out["lower_bound_bytes"] = collective_lower_bound_bytes(c, devices, bytes);
  return out;
}

namespace {
json estimate_json(const NcclEstimate& e) {
  return {{"algorithm", nccl_algorithm_name(e.algorithm)},
          {"protocol", protocol_name(e.protocol)},
          {"time_s", e.time_s},
          {"latency_s", e.latency_s},
          {"bandwidth_Bps", e.bandwidth_Bps}};
}
}  // namespace

json op_nccl(Request& r) {
  const int devices = r.integer("devices", 1, kMaxDevices);
  const double bytes = r.bytes("bytes");
  const Link link = read_link(r, "link");
  NcclTransport transport = transport_of(link);
  parse_transport(r.name_or("transport", transport_name(transport), {"nvlink", "pci", "net"}), &transport);
  std::vector<NcclAlgorithm> algorithms = {NcclAlgorithm::ring, NcclAlgorithm::tree};
  if (r.has("algorithms")) {
    const json& list = r.raw("algorithms");
    if (!list.is_array() || list.empty())
      throw RequestError("invalid_type", "field 'algorithms': value " + show_value(list) +
                                             " is not allowed; allowed: a non-empty array of \"ring\", \"tree\"");
    algorithms.clear();
    for (const json& a : list) {
      if (a == "ring") algorithms.push_back(NcclAlgorithm::ring);
      else if (a == "tree") algorithms.push_back(NcclAlgorithm::tree);
      else
        throw RequestError("unknown_value", "field 'algorithms': unknown value " + show_value(a) +
                                                "; allowed: \"ring\", \"tree\"");
    }
  }
  r.finish();
  const NcclChoice choice = nccl_select(devices, bytes, link, transport, algorithms);
  json candidates = json::array();
  for (const NcclEstimate& e : choice.candidates) candidates.push_back(estimate_json(e));
  json out = estimate_json(choice.best);
  out["devices"] = devices;
  out["bytes"] = bytes;
  out["transport"] = transport_name(transport);
  out["candidates"] = candidates;
  return out;
}

}  // namespace commlab
