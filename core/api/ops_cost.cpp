// Ops of the cost model: links, transfer, allreduce, collective, nccl, crossover (P5 §2-5).
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
// (SPEC "Variants"); exercises written as data ask this.
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

namespace {
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
}  // namespace

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

void op_nccl(Request& r, JsonWriter& w) {
  const int devices = r.integer("devices", 1, kMaxDevices);
  const double bytes = r.bytes("bytes");
  const Link link = read_link(r, "link");
  NcclTransport transport = transport_of(link);
  static const std::vector<std::string> transports = {"nvlink", "pci", "net"};
  parse_transport(r.name_or("transport", transport_name(transport), transports), &transport);
  std::vector<NcclAlgorithm> algorithms = {NcclAlgorithm::ring, NcclAlgorithm::tree};
  if (r.has("algorithms")) {
    const json& list = r.raw("algorithms");
    if (!list.is_array() || list.empty())
      refuse("invalid_type", {"field 'algorithms': value ", show_value(list),
                              " is not allowed; allowed: a non-empty array of \"ring\", \"tree\""});
    algorithms.clear();
    for (const json& a : list) {
      if (a == "ring") algorithms.push_back(NcclAlgorithm::ring);
      else if (a == "tree") algorithms.push_back(NcclAlgorithm::tree);
      else
        refuse("unknown_value", {"field 'algorithms': unknown value ", show_value(a), "; allowed: \"ring\", \"tree\""});
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

namespace {
// A list field of names: a non-empty array of distinct names from `allowed`, returned in the
// order of `allowed` (the lecture's order, which also breaks ties).
std::vector<std::string> read_name_list(Request& r, const char* field, const std::vector<std::string>& allowed) {
  auto allowed_text = [&] {
    std::string s;
    for (const std::string& a : allowed) s += concat({(s.empty() ? "\"" : ", \""), a, "\""});
    return s;
  };
  const json& list = r.raw(field);
  if (!list.is_array() || list.empty())
    refuse("invalid_type", {"field '", r.path(field), "': value ", show_value(list),
                            " is not allowed; allowed: a non-empty array of distinct names from ", allowed_text()});
  std::vector<bool> seen(allowed.size(), false);
  for (const json& a : list) {
    const auto it = a.is_string() ? std::find(allowed.begin(), allowed.end(), a.get<std::string>()) : allowed.end();
    if (it == allowed.end())
      refuse("unknown_value",
             {"field '", r.path(field), "': unknown value ", show_value(a), "; allowed: ", allowed_text()});
    const size_t i = static_cast<size_t>(it - allowed.begin());
    if (seen[i])
      refuse("invalid_value",
             {"field '", r.path(field), "': value ", show_value(a), " is listed twice; allowed: each name once"});
    seen[i] = true;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < allowed.size(); ++i)
    if (seen[i]) out.push_back(allowed[i]);
  return out;
}

// About 1e8 units is half a second natively (README "Limits"); a cost formula is ~20 units,
// the double binary tree's shape ~20 a device (0.1 s for 2^20 devices, measured).
constexpr double kCrossoverWorkUnits = 1e8;
constexpr double kUnitsPerFormula = 20;
}  // namespace

// The sizes where the cheapest all-reduce algorithm, or NCCL (algorithm, protocol) pair, changes
// (P5 §5.3, §5.6): bracketed on a grid and bisected on the closed forms, not sampled.
void op_crossover(Request& r, JsonWriter& w) {
  static const std::vector<std::string> kinds = {"allreduce", "nccl"};
  const std::string kind = r.name_or("kind", "allreduce", kinds);
  const int devices = r.integer("devices", 2, kMaxDevices);
  const Link link = read_link(r, "link");
  const double from = r.bytes_or("from_bytes", 1);
  const double to = r.bytes_or("to_bytes", 1e9);
  if (!(to > from * (1 + 1e-6)))
    refuse("invalid_value", {"fields 'from_bytes' and 'to_bytes': values ", format_number(from), " and ",
                             format_number(to), " are not allowed; allowed: 'to_bytes' above 'from_bytes'"});
  const bool has_at = r.has("bytes");
  const double at = has_at ? r.bytes("bytes") : 0;
  if (!has_at) r.mark_read("bytes");

  std::vector<std::string> names;
  std::function<double(int, double)> cost;
  double work = 0;  // units of one evaluation of every candidate
  std::vector<AllreduceAlgorithm> algos;
  std::vector<std::pair<NcclAlgorithm, NcclProtocol>> pairs;
  NcclTransport transport = transport_of(link);
  if (kind == "allreduce") {
    static const std::vector<std::string> flat = allreduce_names(false);
    if (r.has("algorithms")) {
      if (r.has("in_switch_available"))
        refuse("invalid_request",
               {"fields 'algorithms' and 'in_switch_available': give one of them; allowed: "
                "\"in_switch\" listed in 'algorithms', or 'in_switch_available' without 'algorithms'"});
      names = read_name_list(r, "algorithms", flat);
    } else {
      // As the `auto` choice: every flat algorithm, in-switch only where the switch reduces.
      const bool in_switch = r.boolean_or("in_switch_available", false);
      for (const std::string& n : flat)
        if (n != "in_switch" || in_switch) names.push_back(n);
    }
    for (const std::string& n : names) {
      AllreduceAlgorithm a;
      parse_allreduce_algorithm(n, &a);
      algos.push_back(a);
      work += kUnitsPerFormula * allreduce_cost_work(a, devices);
    }
    cost = [&](int i, double bytes) { return allreduce_cost(algos[i], devices, bytes, link).time_s; };
  } else {
    static const std::vector<std::string> transports = {"nvlink", "pci", "net"};
    parse_transport(r.name_or("transport", transport_name(transport), transports), &transport);
    static const std::vector<std::string> nccl_algos = {"ring", "tree"};
    const std::vector<std::string> chosen = r.has("algorithms") ? read_name_list(r, "algorithms", nccl_algos) : nccl_algos;
    if (!r.has("algorithms")) r.mark_read("algorithms");
    std::vector<NcclAlgorithm> list;
    for (const std::string& n : chosen) list.push_back(n == "ring" ? NcclAlgorithm::ring : NcclAlgorithm::tree);
    pairs = nccl_pairs(list);
    for (const auto& pr : pairs) names.push_back(nccl_pair_name(pr.first, pr.second));
    work = kUnitsPerFormula * static_cast<double>(pairs.size());
    cost = [&](int i, double bytes) {
      return nccl_allreduce_estimate(pairs[i].first, pairs[i].second, devices, bytes, link, transport).time_s;
    };
  }
  r.finish();

  // The work budget, checked before running (README "Limits").
  const int n = static_cast<int>(names.size());
  const double evaluations = static_cast<double>(cheapest_changes_evaluations(n, from, to));
  const double units = evaluations * work + (kind == "allreduce" ? 20.0 * devices : 0);
  if (units > kCrossoverWorkUnits)
    refuse("too_large", {"field 'devices': value ", std::to_string(devices), " makes the crossover search take about ",
                         format_number(units), " units of work; the limit is ", format_number(kCrossoverWorkUnits),
                         ": narrow 'from_bytes'..'to_bytes' or leave \"double_binary_tree\" out of 'algorithms'"});
  charge_work(units);

  const CheapestMap map = cheapest_changes(n, cost, from, to);
  auto write_name = [&](const char* key, int i) {
    w.member(key, names[i]);
  };
  w.key("boundaries");
  w.begin_array();
  for (const CheapestChange& c : map.changes) {
    w.begin_object();
    w.member("bytes", c.bytes);
    write_name("from", c.from);
    w.member("time_s", cost(c.from, c.bytes));
    write_name("to", c.to);
    w.end_object();
  }
  w.end_array();
  w.key("candidates");
  w.begin_array();
  for (const std::string& name : names) w.value(name);
  w.end_array();
  if (has_at) {
    // The cheapest at the asked size, as `allreduce`/`nccl` and exercise 3 compare them.
    int best = 0;
    for (int i = 1; i < n; ++i)
      if (cost(i, at) < cost(best, at)) best = i;
    w.key("cheapest");
    w.begin_object();
    w.member("bytes", at).member("name", names[best]).member("time_s", cost(best, at));
    w.end_object();
  }
  w.member("devices", devices).member("from_bytes", from).member("kind", kind);
  write_link(w, "link", link);
  w.member("rel_tolerance", 1e-9).member("to_bytes", to);
  if (kind == "nccl") w.member("transport", transport_name(transport));
  w.key("winners");
  w.begin_array();
  for (const CheapestBand& b : map.bands) {
    w.begin_object();
    w.member("from_bytes", b.from_bytes);
    write_name("name", b.winner);
    w.member("to_bytes", b.to_bytes);
    w.end_object();
  }
  w.end_array();
}

}  // namespace commlab
