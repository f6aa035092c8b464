#include "model/links.hpp"

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/units.hpp"

namespace commlab {

using namespace units;

// Nominal per-direction bandwidths from P5 §2.1; alphas are the lecture's order-of-magnitude
// assumptions (§0.5: NVLink 2 us, PCIe / InfiniBand 5 us). The two it leaves open are chosen
// so that §3's figures come out: Ethernet at 25 Gb/s with 20 us uses 84% of its bandwidth at
// 256 KB; NVMe at 7 GB/s reads 141 GB in 25 s (§2.5).
const std::vector<LinkSpec>& link_catalogue() {
  static const std::vector<LinkSpec> links = {
      {"hbm3", "HBM3 (H100)", 3.35 * TB, 1 * us, "inside one GPU"},
      {"nvlink5", "NVLink 5", 900 * GB, 2 * us, "in an NVLink domain"},
      {"nvlink4", "NVLink 4", 450 * GB, 2 * us, "in an NVLink domain"},
      {"pcie5", "PCIe Gen5 x16", 64 * GB, 5 * us, "in a node"},
      {"pcie4", "PCIe Gen4 x16", 32 * GB, 5 * us, "in a node"},
      {"ib_ndr", "InfiniBand NDR", 400 * Gbps, 5 * us, "between nodes"},
      {"roce400", "RoCE 400G", 400 * Gbps, 6 * us, "between nodes"},
      {"ethernet", "Ethernet 25G (TCP)", 25 * Gbps, 20 * us, "between nodes"},
      {"nvme", "NVMe SSD", 7 * GB, 80 * us, "storage"},
  };
  return links;
}

namespace {
struct Alias {
  std::string_view name;
  std::string_view id;
};
constexpr Alias kAliases[] = {
    {"hbm", "hbm3"},        {"nvlink", "nvlink4"},   {"nvlink_4", "nvlink4"},
    {"nvlink_5", "nvlink5"}, {"pcie", "pcie5"},       {"pcie_gen5", "pcie5"},
    {"pcie_gen4", "pcie4"}, {"ib", "ib_ndr"},        {"infiniband", "ib_ndr"},
    {"roce", "roce400"},    {"ssd", "nvme"},
};
}  // namespace

const LinkSpec* find_link(std::string_view id) {
  for (const Alias& a : kAliases)
    if (a.name == id) id = a.id;
  for (const LinkSpec& l : link_catalogue())
    if (l.id == id) return &l;
  return nullptr;
}

COMMLAB_RARE std::string link_ids() {
  std::string out;
  for (const LinkSpec& l : link_catalogue()) {
    if (!out.empty()) out += ", ";
    out += l.id;
  }
  return out;
}

const std::vector<std::string>& link_levels() {
  static const std::vector<std::string> levels = {"gpu", "nvlink_domain", "node", "network", "storage"};
  return levels;
}

std::string link_level(const LinkSpec& spec) {
  // The catalogue's scopes, one per level of the §2.1 picture.
  if (spec.scope == "inside one GPU") return "gpu";
  if (spec.scope == "in an NVLink domain") return "nvlink_domain";
  if (spec.scope == "in a node") return "node";
  if (spec.scope == "between nodes") return "network";
  return "storage";
}

BandwidthComparison compare_bandwidth(double a_Bps, double b_Bps) {
  const int faster = b_Bps > a_Bps ? 1 : 0;
  const double hi = faster ? b_Bps : a_Bps, lo = faster ? a_Bps : b_Bps;
  return {faster, hi / lo, hi - lo <= 1e-12 * hi};
}

Link effective_link(const LinkSpec& spec, double efficiency) {
  return Link{spec.alpha_s, spec.nominal_Bps * efficiency, spec.id};
}

Link catalogue_link(std::string_view id, const std::string& field, double efficiency) {
  const LinkSpec* spec = find_link(id);
  if (!spec) {
    // An id of megabytes is quoted by its start only: the message stays short.
    const std::string quoted_id = id.size() > 60 ? std::string(id.substr(0, 57)) + "..." : std::string(id);
    refuse("unknown_value", {"field '", field, "': unknown link '", quoted_id, "'; valid links: ", link_ids(),
                             " (aliases ib, infiniband, nvlink, pcie, roce, hbm, "
                             "ssd), or an object {\"alpha_s\", \"beta_Bps\"}"});
  }
  return effective_link(*spec, efficiency);
}

}  // namespace commlab
