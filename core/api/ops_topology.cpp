// The `nccl.topology` op: NCCL's own account of the rings, trees and transports it built, read from
// its NCCL_DEBUG=INFO lines, and the lecture's model applied to them (core/OPS.md; P5 §4-5). The
// reading and the model are the measured layer's; this reads the request and writes the answer
// (members in key order, as the text writer wants them).
#include <string>

#include "api/ops.hpp"
#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/json_writer.hpp"
#include "base/work_meter.hpp"
#include "measured/nccl_topology.hpp"
#include "model/presets.hpp"

namespace commlab {

namespace {

const std::vector<std::string>& link_id_list() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const LinkSpec& l : link_catalogue()) v.push_back(l.id);
    return v;
  }();
  return ids;
}

void write_ints(JsonWriter& w, std::string_view key, const std::vector<int>& xs) {
  w.key(key);
  w.begin_array();
  for (int x : xs) w.value(x);
  w.end_array();
}

void write_explanation(JsonWriter& w, const TopoExplanation& x) {
  w.key("explanation");
  w.begin_object();
  w.key("assumptions");
  w.begin_array();
  for (const std::string& a : x.assumptions) w.value(a);
  w.end_array();
  w.member("bottleneck", x.bottleneck);
  w.objects("bounds", x.bounds, [&](const TopoBound& b) {
    w.member("beta_Bps", b.beta_Bps)
        .member("busbw_Bps", b.busbw_Bps)
        .member("kind", b.kind)
        .member("link", b.link->id)
        .member("links_in_parallel", b.links_in_parallel)
        .member("max_hops_per_link", b.max_hops_per_link);
  });
  w.objects("channels", x.channels, [&](const TopoChannelExplanation& c) {
    w.member("bottleneck", c.bottleneck);
    w.key("by_class");
    w.begin_object();
    w.member("network", c.by_class.network).member("nvlink", c.by_class.nvlink).member("shm", c.by_class.shm)
        .member("unknown", c.by_class.unknown);
    w.end_object();
    w.member("channel", c.channel).member("cross_node_hops", c.cross_node_hops).member("hops", c.hops)
        .member("rebuilt", c.rebuilt);
  });
  if (!x.verdict.empty()) w.member("deviation_percent", x.deviation_percent);
  if (x.verdict == "above") w.member("in_switch", x.in_switch);
  w.objects("links", x.links, [&](const TopoExplanation::UsedLink& l) {
    w.member("beta_Bps", effective_link(*l.spec).beta_Bps)
        .member("id", l.spec->id)
        .member("label", l.spec->label)
        .member("nominal_Bps", l.spec->nominal_Bps)
        .member("used_for", l.used_for);
  });
  if (x.has_measured) {
    const TopoMeasured& m = x.measured;
    w.key("measured");
    w.begin_object();
    w.member("best_busbw_Bps", m.best_busbw_Bps)
        .member("busbw_Bps", m.busbw_Bps)
        .member("bytes", static_cast<long long>(m.bytes))
        .member("first_line", m.first_line)
        .member("last_line", m.last_line)
        .member("ranks", m.ranks)
        .member("table", m.table);
    w.end_object();
  }
  if (x.predicted) w.member("predicted_busbw_Bps", x.predicted_busbw_Bps);
  w.member("rings", x.rings).member("sentence", x.sentence);
  if (!x.verdict.empty()) w.member("verdict", x.verdict);
  w.end_object();
}

void write_comm(JsonWriter& w, const TopoComm& c, const TopoExplanation& x) {
  w.begin_object();
  w.objects("channels", c.channels, [&](const TopoChannel& ch) {
    w.member("channel", ch.channel).member("complete", ch.complete).member("line", ch.line);
    if (!ch.rebuilt.empty()) write_ints(w, "rebuilt_ring", ch.rebuilt);
    write_ints(w, "ring", ch.ring);
  });
  if (!c.comm_id.empty()) w.member("comm_id", c.comm_id);
  w.objects("connections", c.connections, [&](const TopoConnection& k) {
    w.member("channel", k.channel);
    if (k.conn >= 0) w.member("conn", k.conn);
    if (!k.direction.empty()) w.member("direction", k.direction);
    w.member("from", k.from).member("to", k.to).member("transport", k.transport);
  });
  write_explanation(w, x);
  w.member("first_line", c.first_line).member("last_line", c.last_line);
  w.objects("nodes", c.nodes, [&](const TopoNode& n) {
    w.member("host", n.host);
    write_ints(w, "ranks", n.ranks);
  });
  w.key("notes");
  w.begin_array();
  for (const std::string& n : c.notes) w.value(n);
  w.end_array();
  w.member("ranks", c.ranks).member("ranks_from", c.ranks_from);
  w.objects("trees", c.trees, [&](const TopoTree& t) {
    w.member("channel", t.channel);
    write_ints(w, "children", t.children);
    w.member("parent", t.parent).member("rank", t.rank);
  });
  if (!c.version.empty()) w.member("version", c.version);
  w.end_object();
}

COMMLAB_RARE void refuse_no_topology(const TopologyLog& log, std::string_view text) {
  int comms = 0;
  for (const TopoComm& c : log.communicators) comms += c.channels.empty() && c.trees.empty() && c.connections.empty();
  std::string seen = text.find_first_not_of(" \t\r\n") == std::string_view::npos
                         ? "the text is empty"
                         : concat({"read ", std::to_string(log.lines), log.lines == 1 ? " line" : " lines"});
  if (comms) seen += concat({", ", std::to_string(comms), comms == 1 ? " communicator" : " communicators",
                             " named ('comm 0x.. rank .. nRanks ..') but none of its rings, trees or connections"});
  if (log.rejected_lines)
    seen += concat({"; ", std::to_string(log.rejected_lines), log.rejected_lines == 1 ? " line" : " lines",
                    " in a topology format refused (line ", std::to_string(log.rejected[0].line), ": ",
                    log.rejected[0].reason, ")"});
  refuse("invalid_value",
         {"field 'log': no NCCL topology lines found (", seen,
          "); allowed: the output of a run with NCCL_DEBUG=INFO, whose INIT lines print the rings ('Channel 00/16 :  0  "
          "7  6 ...'), trees ('Trees [0] 1/8/-1->0->-1 ...') and connections ('Channel 00/0 : 9[51000] -> 0[4b000] "
          "[receive] via NET/IB/0'); NCCL_DEBUG_SUBSYS=INIT,GRAPH adds every rank's 'Ring 00 : 7 -> 0 -> 1' lines, "
          "which rebuild rings NCCL cuts"});
}

}  // namespace

void op_nccl_topology(Request& r, JsonWriter& w) {
  const json& log = r.required("log", [] { return std::string("the text of a run with NCCL_DEBUG=INFO, as a string"); });
  if (!log.is_string())
    refuse("invalid_type", {"field 'log': value ", show_value(log),
                            " is not a string; allowed: the text of a run with NCCL_DEBUG=INFO, as a string"});
  TopoLinks links;
  const bool gpu_given = r.has("gpu");
  const GpuPreset gpu = read_gpu(r, "h100");
  const std::string nvlink = r.name_or("nvlink", gpu.nvlink, link_id_list());
  links.nvlink = find_link(nvlink);
  links.nvlink_from = r.has("nvlink") ? "request" : gpu_given ? concat({"gpu ", gpu.id, "'s"}) : "default: the H100's";
  links.nic = find_link(r.name_or("nic", "ib_ndr", link_id_list()));
  links.nic_from = r.has("nic") ? "request" : "default: InfiniBand NDR, one a GPU as in a DGX H100";
  r.finish();

  // The budget, checked before reading (core/README.md "Limits"): the fit's.
  const std::string& text = log.get_ref<const std::string&>();
  if (static_cast<double>(text.size()) > kMaxLogBytes)
    refuse("too_large", {"field 'log': ", std::to_string(text.size()), " bytes of text; allowed: at most ",
                         std::to_string(static_cast<long long>(kMaxLogBytes)),
                         " bytes a request: read the log in parts (each communicator's lines are in its ranks' part)"});
  const long long lines = log_line_count(text);
  if (lines > kMaxLogLines)
    refuse("too_large", {"field 'log': ", std::to_string(lines), " lines of text; allowed: at most ",
                         std::to_string(kMaxLogLines), " lines a request: read the log in parts"});
  charge_work(topology_work_units(static_cast<double>(text.size())));

  const TopologyLog topo = read_nccl_topology(text);
  if (topo.too_many_communicators)
    refuse("too_large", {"field 'log': ", std::to_string(topo.too_many_communicators),
                         " communicators; allowed: at most ", std::to_string(kMaxTopologyCommunicators),
                         " a request: read the log in parts"});
  bool any = false;
  for (const TopoComm& c : topo.communicators) any = any || !c.channels.empty() || !c.trees.empty() || !c.connections.empty();
  if (!any) refuse_no_topology(topo, text);
  const ParsedLog tables = parse_nccl_log(text);

  w.reserve(4096 + text.size());
  w.key("communicators");
  w.begin_array();
  for (const TopoComm& c : topo.communicators) write_comm(w, c, explain_topology(c, topo, tables, links));
  w.end_array();
  w.objects("in_switch", topo.in_switch, [&](const TopoInSwitchLine& s) {
    w.member("line", s.line).member("says", s.says).member("text", s.text);
  });
  w.member("lines", topo.lines);
  w.objects("rejected", topo.rejected, [&](const LogSkip& s) { w.member("line", s.line).member("reason", s.reason); });
  w.member("rejected_lines", topo.rejected_lines)
      .member("skipped_lines", topo.skipped_lines)
      .member("topology_lines", topo.topology_lines);
}

}  // namespace commlab
