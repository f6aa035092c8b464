// The "simulate" op: runs the collective-step engine (schedule.hpp, executor.hpp) on a
// topology and returns the schedule for the page to animate, the totals, the closed form
// beside them, and whether data mode verified (P5 §4-5).
#include <algorithm>
#include <cmath>

#include "base/concat.hpp"
#include "model/collectives.hpp"
#include "base/error.hpp"
#include "base/json_writer.hpp"
#include "steps/executor.hpp"
#include "api/ops.hpp"
#include "model/link_field.hpp"
#include "steps/schedule.hpp"
#include "steps/topology.hpp"

namespace commlab {

namespace {

/// Largest device count simulate accepts (accounting mode).
constexpr int kMaxSimDevices = 65536;
/// Messages the trace may carry, and steps listed, at most.
constexpr int kMaxTraceMessages = 100000;
constexpr int kDefaultTraceMessages = 4096;
constexpr int kMaxListedSteps = 20000;
/// "auto" mode runs data mode up to this much buffer memory, accounting beyond.
constexpr double kAutoDataBytes = 16e6;

/// A chunk of the buffer, [begin, end, den]: elements begin/den to end/den.
void write_range(JsonWriter& w, int64_t begin, int64_t len, int64_t den) {
  w.begin_array();
  w.value(begin);
  w.value(begin + len);
  w.value(den);
  w.end_array();
}

/// `gpus` > 0 on two levels: the message says whether it stays in a node (P5 §5.5).
void write_message(JsonWriter& w, const Message& m, int gpus) {
  w.begin_object();
  w.member("src", m.src).member("dst", m.dst).member("op", m.op == MsgOp::reduce ? "reduce" : "copy").member("bytes", m.bytes);
  w.key("chunk");
  write_range(w, m.src_begin, m.len, m.den);
  if (m.dst_begin != m.src_begin) {
    w.key("dst_chunk");
    write_range(w, m.dst_begin, m.len, m.den);
  }
  if (gpus > 0) w.member("level", m.src / gpus == m.dst / gpus ? "intra" : "inter");
  w.end_object();
}

std::vector<PairLink> read_custom_links(Request& r, int k) {
  const json& list = r.raw("links");
  const std::string rule = "allowed: an array of {\"from\": device, \"to\": device, \"link\": link}";
  if (!list.is_array()) refuse("invalid_type", {"field 'links': value ", show_value(list), " is not an array; ", rule});
  std::vector<PairLink> out;
  for (size_t i = 0; i < list.size(); ++i) {
    Request item(list[i], concat({"links[", std::to_string(i), "]."}));
    PairLink p;
    p.from = item.integer("from", 0, k - 1);
    p.to = item.integer("to", 0, k - 1);
    p.link = read_link(item, "link");
    item.finish();
    if (p.from == p.to)
      refuse("out_of_range", {"field 'links[", std::to_string(i), "]': from and to are both ", std::to_string(p.from),
                              "; allowed: two different devices"});
    out.push_back(p);
  }
  return out;
}

// An uneven all-to-all (MoE dispatch, P5 §4.3): bytes from device i to device j.
std::vector<double> read_pair_bytes(Request& r, int k) {
  const json& rows = r.raw("pair_bytes");
  const std::string rule = concat({"allowed: ", std::to_string(k), " arrays of ", std::to_string(k),
                                   " byte counts >= 0 (row i: bytes device i sends to each device), at most ",
                                   std::to_string(kMaxCustomDevices), " devices"});
  if (!rows.is_array() || static_cast<int>(rows.size()) != k || k > kMaxCustomDevices)
    refuse("invalid_type", {"field 'pair_bytes': value ", show_value(rows), " is not allowed; ", rule});
  std::vector<double> out(static_cast<size_t>(k) * k, 0.0);
  for (int i = 0; i < k; ++i) {
    const json& row = rows[i];
    if (!row.is_array() || static_cast<int>(row.size()) != k)
      refuse("invalid_type",
             {"field 'pair_bytes[", std::to_string(i), "]': value ", show_value(row), " is not allowed; ", rule});
    for (int j = 0; j < k; ++j) {
      const json& v = row[j];
      if (!v.is_number())
        refuse("invalid_type", {"field 'pair_bytes[", std::to_string(i), "][", std::to_string(j), "]': value ",
                                show_value(v), " is ", type_name(v), "; ", rule});
      if (!(v.get<double>() >= 0) || v.get<double>() > kMaxBytes)
        refuse("out_of_range", {"field 'pair_bytes[", std::to_string(i), "][", std::to_string(j), "]': value ",
                                show_value(v), " is not allowed; ", rule});
      if (i != j) out[static_cast<size_t>(i) * k + j] = v.get<double>();  // the diagonal stays local
    }
  }
  return out;
}

// The closed form of collectives.cpp, where the topology is the uniform one it assumes (null
// elsewhere).
void write_closed_form(JsonWriter& w, const ScheduleSpec& spec, const std::string& topo_name, bool dbt, int nodes,
                       int gpus, const Link& link, const Link& inter) {
  const Collective collective = spec.collective;
  const int k = spec.devices;
  const bool hierarchical = spec.algorithm == "hierarchical";
  if (topo_name == "switch" && !hierarchical && spec.pair_bytes.empty()) {
    write_cost(w, collective == Collective::allreduce && dbt
                      ? allreduce_cost(AllreduceAlgorithm::double_binary_tree, k, spec.bytes, link, spec.chunks)
                      : collective_cost(collective, spec.algorithm, k, spec.bytes, link));
  } else if (hierarchical) {
    const HierarchicalCost h =
        hierarchical_allreduce_cost(nodes, gpus, spec.bytes, link, inter, spec.inter_algorithm);
    CollectiveCost total = h.total;
    if (dbt) {  // the chunk count asked for, not the closed form's own best
      const CollectiveCost across = allreduce_cost(AllreduceAlgorithm::double_binary_tree, nodes,
                                                   spec.bytes / gpus, inter, spec.chunks);
      total.time_s += across.time_s - h.inter_allreduce.time_s;
      total.alpha_time_s += across.alpha_time_s - h.inter_allreduce.alpha_time_s;
      total.steps += across.steps - h.inter_allreduce.steps;
      total.bytes_sent_per_device += across.bytes_sent_per_device - h.inter_allreduce.bytes_sent_per_device;
    }
    write_cost(w, total);
  } else {
    w.value(nullptr);
  }
}

// The steps run, each with its messages while the trace lasts.
void write_schedule(JsonWriter& w, const ExecResult& res, const ExecOptions& opt, bool hierarchical,
                    int gpus_of_level) {
  const size_t listed = std::min<size_t>(res.step_records.size(), kMaxListedSteps);
  w.key("schedule");
  w.begin_object();
  w.key("steps");
  w.begin_array();
  for (size_t i = 0; i < listed; ++i) {
    const StepRecord& s = res.step_records[i];
    w.begin_object();
    w.member("step", i).member("phase", s.phase).member("time_s", s.time_s).member("messages", s.messages);
    if (*s.detail) w.member("detail", s.detail);
    // Hierarchical (P5 §5.5): who works together in this step.
    if (hierarchical) w.member("group", *s.detail ? "same_local_rank" : "node");
    if (s.cut_through) w.member("cut_through", true);
    if (!s.trace.empty()) {
      w.key("trace");
      w.begin_array();
      for (const Message& m : s.trace) write_message(w, m, gpus_of_level);
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();
  w.member("steps_listed", listed)
      .member("steps_truncated", listed < res.step_records.size())
      .member("trace_limit", opt.trace_messages)
      .member("traced_messages", res.trace_messages)
      .member("trace_truncated", res.trace_truncated);
  w.end_object();
}

}  // namespace

void op_simulate(Request& r, JsonWriter& w) {
  std::vector<std::string> names;
  for (Collective c : collectives()) names.push_back(collective_name(c));
  Collective collective;
  parse_collective(r.name_or("collective", "allreduce", names), &collective);
  const std::vector<std::string> algos = schedule_algorithms(collective);
  ScheduleSpec spec;
  spec.collective = collective;
  spec.algorithm = r.name_or("algorithm", algos.front(), algos);
  const bool hierarchical = spec.algorithm == "hierarchical";
  spec.bytes = r.bytes("bytes");

  const std::string topo_name = r.name_or("topology", hierarchical ? "two_level" : "switch",
                                          {"switch", "ring", "two_level", "custom"});
  if (hierarchical && topo_name != "two_level")
    refuse("invalid_request",
           {"field 'topology': value \"", topo_name, "\" cannot run hierarchical all-reduce; allowed: \"two_level\""});

  // Devices and topology.
  int nodes = 1, gpus = 1;
  Link link, inter;
  if (topo_name == "two_level") {
    nodes = r.integer("nodes", 1, kMaxSimDevices);
    gpus = r.integer("gpus_per_node", 1, 1024);
    if (static_cast<long long>(nodes) * gpus > kMaxSimDevices || nodes * gpus < 2)
      refuse("out_of_range", {"fields 'nodes' x 'gpus_per_node': ", std::to_string(nodes), " x ", std::to_string(gpus),
                              " devices; allowed: 2 to ", std::to_string(kMaxSimDevices)});
    spec.devices = nodes * gpus;
    if (r.has("devices") && r.integer("devices", 2, kMaxSimDevices) != spec.devices)
      refuse("invalid_request", {"field 'devices': must equal nodes x gpus_per_node = ", std::to_string(spec.devices),
                                 "; allowed: omit it"});
    link = read_link_or(r, "intra_link", "nvlink4");
    inter = read_link_or(r, "inter_link", "ib_ndr");
  } else {
    spec.devices = r.integer("devices", 2, topo_name == "custom" ? kMaxCustomDevices : kMaxSimDevices);
    link = topo_name == "custom" && !r.has("link") ? Link{} : read_link_or(r, "link", "nvlink4");
  }
  const int k = spec.devices;
  Topology topo = Topology::switched(k, link);
  if (topo_name == "ring") topo = Topology::ring(k, link);
  if (topo_name == "two_level") topo = Topology::two_level(nodes, gpus, link, inter);
  if (topo_name == "custom") {
    const bool has_default = r.has("link");
    topo = Topology::custom(k, r.has("links") ? read_custom_links(r, k) : std::vector<PairLink>{}, link,
                            has_default);
  }
  if (spec.algorithm == "in_switch" && !topo.has_reducing_switch())
    refuse("invalid_request", {"field 'algorithm': in_switch needs a switch that reduces; "
                               "allowed with \"topology\": \"switch\" only"});

  // Algorithm parameters.
  if (collective == Collective::broadcast || collective == Collective::reduce ||
      collective == Collective::sendrecv)
    spec.root = r.integer_or("root", 0, 0, k - 1);
  if (collective == Collective::sendrecv) {
    spec.peer = r.integer_or("peer", spec.root == 1 ? 0 : 1, 0, k - 1);
    if (spec.peer == spec.root)
      refuse("out_of_range",
             {"field 'peer': value ", std::to_string(spec.peer), " is the sender; allowed: another device"});
  }
  if (hierarchical) {
    std::vector<std::string> inter_names;
    for (AllreduceAlgorithm a : allreduce_algorithms())
      if (a != AllreduceAlgorithm::in_switch) inter_names.push_back(algorithm_name(a));
    parse_allreduce_algorithm(r.name_or("inter_algorithm", "ring", inter_names), &spec.inter_algorithm);
    spec.gpus_per_node = gpus;
  }
  if (collective == Collective::alltoall && r.has("pair_bytes")) spec.pair_bytes = read_pair_bytes(r, k);
  const bool dbt = spec.algorithm == "double_binary_tree" ||
                   (hierarchical && spec.inter_algorithm == AllreduceAlgorithm::double_binary_tree);
  if (dbt) {
    spec.chunks = r.integer_or("chunks", 0, 0, 4096);
    if (spec.chunks == 0)  // the count that minimises the closed form on the link it runs on
      spec.chunks = hierarchical ? allreduce_cost(AllreduceAlgorithm::double_binary_tree, nodes,
                                                  spec.bytes / gpus, inter).chunks
                                 : allreduce_cost(AllreduceAlgorithm::double_binary_tree, k, spec.bytes,
                                                  topo_name == "two_level" ? inter : link).chunks;
  }

  // How to run.
  std::string mode = r.name_or("mode", "auto", {"auto", "data", "accounting"});
  ExecOptions opt;
  opt.seed = static_cast<uint64_t>(r.integer_or("seed", 1, 0, 2147483647));
  opt.trace_messages = r.integer_or("trace_limit", kDefaultTraceMessages, 0, kMaxTraceMessages);
  r.finish();
  if (mode == "auto") {
    mode = "accounting";
    if (static_cast<double>(k) * spec.bytes <= kAutoDataBytes && spec.pair_bytes.empty()) {
      ExecOptions probe = opt;
      probe.data = true;
      try {
        check_run_limits(spec, topo, probe);
        mode = "data";
      } catch (const RequestError&) {
      }
    }
  }
  opt.data = mode == "data";
  const ExecResult res = execute(spec, topo, opt);
  // Room for the trace's messages (about 150 characters each) and the steps (about 80).
  w.reserve(4096 + 150 * static_cast<size_t>(res.trace_messages) +
            80 * std::min<size_t>(res.step_records.size(), kMaxListedSteps));

  w.member("collective", collective_name(collective))
      .member("algorithm", spec.algorithm)
      .member("devices", k)
      .member("bytes", spec.bytes)
      .member("mode", mode)
      .member("steps", res.steps)
      .member("messages", res.messages)
      .member("time_s", res.time_s)
      .member("alpha_time_s", res.alpha_time_s)
      .member("beta_time_s", res.time_s - res.alpha_time_s)
      .member("bytes_sent_per_device", res.max_bytes_sent)
      .member("bytes_received_per_device", res.max_bytes_received)
      .member("lower_bound_bytes", collective_lower_bound_bytes(collective, k, spec.bytes));
  // What the bound view concludes (§4.2): the bytes against the bound (to rounding), and for an
  // all-reduce the steps against the bandwidth-optimal ring's 2(k-1): "above the bound" buys
  // fewer alphas only when the steps are fewer.
  {
    const double bound = collective_lower_bound_bytes(collective, k, spec.bytes);
    const double sent = res.max_bytes_sent;
    const double tol = 1e-9 * std::max(sent, bound);
    w.member("against_bound", std::fabs(sent - bound) <= tol ? "meets" : sent > bound ? "above" : "below");
    if (collective == Collective::allreduce) {
      const long long ring_steps = 2LL * (k - 1);
      w.member("ring_steps", ring_steps)
          .member("steps_against_ring", res.steps < ring_steps ? "fewer" : res.steps == ring_steps ? "same" : "more");
    }
  }
  w.key("topology");
  w.begin_object();
  w.member("kind", topo_name);
  if (topo_name == "two_level") {
    w.member("nodes", nodes).member("gpus_per_node", gpus);
    write_link(w, "intra_link", link);
    write_link(w, "inter_link", inter);
  } else if (topo_name != "custom" || r.has("link")) {
    write_link(w, "link", link);
  }
  w.end_object();
  if (dbt) w.member("chunks", spec.chunks);
  if (hierarchical) w.member("inter_algorithm", algorithm_name(spec.inter_algorithm));
  if (collective == Collective::broadcast || collective == Collective::reduce || collective == Collective::sendrecv)
    w.member("root", spec.root);
  if (collective == Collective::sendrecv) w.member("peer", spec.peer);
  if (spec.algorithm == "in_switch") w.member("switch_node", k).member("switch_bytes_received", res.switch_bytes_received);
  if (k <= 4096) {
    w.key("per_device");
    w.begin_object();
    w.member("bytes_received", res.bytes_received).member("bytes_sent", res.bytes_sent);
    w.end_object();
  }

  w.key("closed_form");
  write_closed_form(w, spec, topo_name, dbt, nodes, gpus, link, inter);

  if (opt.data) {
    w.member("verified", res.verified)
        .member("verification", res.verification)
        .member("elements_per_device", res.elements)
        .member("peak_buffer_bytes", res.peak_buffer_bytes);
  } else {
    w.key("verified");
    w.value(nullptr);
    w.member("verification", "accounting mode: bytes, messages, steps and time only");
  }

  write_schedule(w, res, opt, hierarchical, topo_name == "two_level" ? gpus : 0);
}

}  // namespace commlab
