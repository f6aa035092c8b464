// The ladder op: the bandwidth ladder of P5 §2.1 with its ratios (links and a node preset).
#include "api/ops.hpp"
#include "base/concat.hpp"
#include "base/json_writer.hpp"
#include "model/links.hpp"
#include "model/presets.hpp"

namespace commlab {

namespace {
// The ratios P5 §2.1 states: HBM against NVLink ("NVLink is nearly 10x slower than HBM"), NVLink
// against the NIC ("nearly an order of magnitude") and against Ethernet ("over two orders").
const std::vector<std::pair<std::string, std::string>>& lecture_pairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"hbm3", "nvlink4"}, {"nvlink4", "ib_ndr"}, {"nvlink4", "ethernet"}};
  return pairs;
}
constexpr size_t kMaxLadderPairs = 64;
}  // namespace

// The bandwidth ladder of P5 §2.1: each catalogue link on its level with its effective beta and
// alpha, pairs of links compared (which is faster, by how much), and a node's NVLink inside
// against its NICs outside (§2.3: "inside the node 9x outside"). Written member by member.
void op_ladder(Request& r, JsonWriter& w) {
  const double eff = r.number_or("efficiency", kDefaultEfficiency, Range{0.01, 1, false, ""});
  std::vector<std::pair<const LinkSpec*, const LinkSpec*>> pairs;
  if (r.has("pairs")) {
    const json& list = r.raw("pairs");
    auto bad_pair = [&](const std::string& where, const json& v) {
      refuse("invalid_type",
             {"field '", where, "': value ", show_value(v), " is not allowed; allowed: a non-empty array of at most ",
              std::to_string(kMaxLadderPairs), " pairs [link, link] of catalogue ids (", link_ids(), ")"});
    };
    if (!list.is_array() || list.empty() || list.size() > kMaxLadderPairs) bad_pair("pairs", list);
    for (size_t i = 0; i < list.size(); ++i) {
      const json& p = list[i];
      const std::string where = concat({"pairs[", std::to_string(i), "]"});
      if (!p.is_array() || p.size() != 2 || !p[0].is_string() || !p[1].is_string()) bad_pair(where, p);
      const LinkSpec* ends[2];
      for (int k = 0; k < 2; ++k)
        if (!(ends[k] = find_link(p[k].get<std::string>())))
          refuse("unknown_value", {"field '", where, "[", std::to_string(k), "]': unknown link ", show_value(p[k]),
                                   "; valid links: ", link_ids()});
      pairs.emplace_back(ends[0], ends[1]);
    }
  } else {
    for (const auto& [a, b] : lecture_pairs()) pairs.emplace_back(find_link(a), find_link(b));
  }
  const NodePreset node = read_node(r, "dgx_h100");
  r.finish();

  auto beta = [&](const LinkSpec& s) { return effective_link(s, eff).beta_Bps; };
  w.key("comparisons");
  w.begin_array();
  for (const auto& [a, b] : pairs) {
    const BandwidthComparison c = compare_bandwidth(beta(*a), beta(*b));
    const LinkSpec& fast = c.faster ? *b : *a;
    const LinkSpec& slow = c.faster ? *a : *b;
    w.begin_object();
    w.member("a", a->id).member("b", b->id).member("equal", c.equal).member("faster", fast.id)
        .member("faster_Bps", beta(fast)).member("faster_label", fast.label).member("ratio", c.ratio)
        .member("slower", slow.id).member("slower_Bps", beta(slow)).member("slower_label", slow.label);
    w.end_object();
  }
  w.end_array();
  w.member("efficiency", eff);
  w.key("levels");
  w.begin_array();
  for (const std::string& l : link_levels()) w.value(l);
  w.end_array();
  // §2.3: every GPU's NVLink at once against every NIC at once, per direction.
  const LinkSpec& intra = *find_link(node.intra_link);
  const LinkSpec& nic = *find_link(node.nic_link);
  const double inside_nominal = node.gpus * intra.nominal_Bps, outside_nominal = node.nics * nic.nominal_Bps;
  const BandwidthComparison c = compare_bandwidth(inside_nominal, outside_nominal);
  w.key("node");
  w.begin_object();
  w.member("equal", c.equal).member("faster", c.faster ? "outside" : "inside").member("gpus", node.gpus)
      .member("id", node.id).member("inside_Bps", inside_nominal * eff).member("inside_nominal_Bps", inside_nominal)
      .member("intra_label", intra.label).member("intra_link", intra.id).member("label", node.label)
      .member("nic_label", nic.label).member("nic_link", nic.id).member("nics", node.nics)
      .member("outside_Bps", outside_nominal * eff).member("outside_nominal_Bps", outside_nominal)
      .member("per_gpu_Bps", beta(intra)).member("per_nic_Bps", beta(nic)).member("ratio", c.ratio);
  w.end_object();
  w.key("rungs");
  w.begin_array();
  for (const LinkSpec& s : link_catalogue()) {
    const Link l = effective_link(s, eff);
    w.begin_object();
    w.member("alpha_s", l.alpha_s).member("beta_Bps", l.beta_Bps).member("id", s.id).member("label", s.label)
        .member("level", link_level(s)).member("n_half_bytes", n_half_bytes(l)).member("nominal_Bps", s.nominal_Bps)
        .member("scope", s.scope);
    w.end_object();
  }
  w.end_array();
}

}  // namespace commlab
