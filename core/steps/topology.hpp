// Where messages travel (P5 §2): a topology maps a message to the directed ports it loads.
// A message costs alpha + bytes/beta on its link; messages sharing one directed port in one
// step share its bandwidth (P5 §3, §5.5).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/links.hpp"

namespace commlab {

enum class TopologyKind {
  switched,   // every device on one non-blocking switch (NVSwitch, P5 §2.2)
  ring,       // neighbours only, both directions; far messages take the shorter way round
  two_level,  // nodes of G GPUs on an NVSwitch, one NIC per GPU on InfiniBand (P5 §2.3)
  custom,     // a dedicated directed link per device pair, listed or by default
};

std::string topology_name(TopologyKind t);

constexpr int kMaxCustomDevices = 256;

/// One dedicated link of a custom topology.
struct PairLink {
  int from, to;
  Link link;
};

class Topology {
 public:
  /// Every device on one switch: one up and one down port per device.
  static Topology switched(int devices, const Link& link);
  /// A bidirectional ring of devices.
  static Topology ring(int devices, const Link& link);
  /// nodes x gpus_per_node; device id = node * gpus_per_node + local rank.
  static Topology two_level(int nodes, int gpus_per_node, const Link& intra, const Link& inter);
  /// Listed pairs get their link; other pairs get `fallback` if `has_fallback`, else no route.
  /// At most kMaxCustomDevices devices (one port per ordered pair).
  static Topology custom(int devices, const std::vector<PairLink>& links, const Link& fallback,
                         bool has_fallback);

  TopologyKind kind() const { return kind_; }
  int devices() const { return devices_; }
  int gpus_per_node() const { return gpus_per_node_; }
  /// True when a reducing switch node (id = devices()) exists: only the switched topology.
  bool has_reducing_switch() const { return kind_ == TopologyKind::switched; }
  /// The one link every message uses, for topologies where all links are alike.
  bool uniform() const;
  const Link& link() const { return link_; }
  const Link& intra() const { return link_; }
  const Link& inter() const { return inter_; }
  int port_count() const { return static_cast<int>(port_beta_.size()); }
  double port_beta(int port) const { return port_beta_[port]; }

  /// Appends the ports a message from src to dst loads and returns its alpha. The switch node
  /// (id devices()) is reached through the device's own port. Throws RequestError when no
  /// route exists (custom topology without that pair).
  double route(int src, int dst, std::vector<int32_t>* ports) const;

 private:
  TopologyKind kind_ = TopologyKind::switched;
  int devices_ = 0;
  int gpus_per_node_ = 1;
  Link link_, inter_;
  std::vector<double> port_beta_;
  // custom: port = src * devices + dst, dense (custom topologies are small); beta 0 = no link
  std::vector<double> port_alpha_;
};

}  // namespace commlab
