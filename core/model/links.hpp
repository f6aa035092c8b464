// Layer model (on base): links and alpha-beta, collectives and all-reduce costs, NCCL, presets.
// The lecture's link catalogue (P5 §2.1, code 01 demo 1) and the alpha-beta model (§3).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace commlab {

/// Bandwidth is per GPU, per direction; effective = nominal x efficiency (P5 §0.4).
constexpr double kDefaultEfficiency = 0.8;

/// One catalogue entry: nominal per-direction bandwidth and an assumed alpha.
struct LinkSpec {
  std::string id;          // request name, e.g. "nvlink4"
  std::string label;       // as the lecture writes it, e.g. "NVLink 4"
  double nominal_Bps;      // per direction, before efficiency
  double alpha_s;          // fixed cost per message
  std::string scope;       // where it sits in the hierarchy of §2.1
};

/// A link as the cost model uses it: beta is already effective.
struct Link {
  double alpha_s = 0;
  double beta_Bps = 0;
  std::string id = "custom";
};

/// The nine links of P5 §2.1, fastest first.
const std::vector<LinkSpec>& link_catalogue();
/// Looks a link up by id or alias ("ib", "infiniband"); nullptr when unknown.
const LinkSpec* find_link(std::string_view id);
/// Comma-separated ids, for error messages that list the valid names.
std::string link_ids();
/// The effective link: beta = nominal x efficiency.
Link effective_link(const LinkSpec& spec, double efficiency = kDefaultEfficiency);
/// Catalogue link by id; throws RequestError naming `field` when unknown.
Link catalogue_link(std::string_view id, const std::string& field = "link",
                    double efficiency = kDefaultEfficiency);

/// The level of P5 §2.1's hierarchy a catalogue link sits on, from its scope: "gpu",
/// "nvlink_domain", "node", "network" or "storage" (fastest level first).
std::string link_level(const LinkSpec& spec);
/// The levels in the order of §2.1's picture, top (inside a GPU) to bottom (storage).
const std::vector<std::string>& link_levels();

/// Two bandwidths compared (P5 §2.1: "NVLink is nearly 10x slower than HBM"): which is faster
/// and by how much (ratio >= 1; `equal` when they are the same to 1e-12).
struct BandwidthComparison {
  int faster;  // 0 or 1: the index of the faster of the two given
  double ratio;
  bool equal;
};
BandwidthComparison compare_bandwidth(double a_Bps, double b_Bps);

/// T(n) = alpha + n / beta (P5 §3).
inline double transfer_time_s(const Link& link, double bytes) {
  return link.alpha_s + bytes / link.beta_Bps;
}
/// Half-bandwidth message size n_1/2 = alpha x beta (P5 §3).
inline double n_half_bytes(const Link& link) { return link.alpha_s * link.beta_Bps; }
/// Share of the effective bandwidth a message of n bytes achieves: (n/beta) / T(n).
inline double bandwidth_fraction(const Link& link, double bytes) {
  const double t = transfer_time_s(link, bytes);
  return t > 0 ? (bytes / link.beta_Bps) / t : 0.0;
}

}  // namespace commlab
