#include "steps/topology.hpp"

#include "base/concat.hpp"
#include "base/error.hpp"

namespace commlab {

std::string topology_name(TopologyKind t) {
  switch (t) {
    case TopologyKind::switched: return "switch";
    case TopologyKind::ring: return "ring";
    case TopologyKind::two_level: return "two_level";
    case TopologyKind::custom: return "custom";
  }
  return "switch";
}

// Switch: port 2i is device i's uplink (device -> switch), 2i+1 its downlink. A message i -> j
// loads i's uplink and j's downlink: the switch itself never blocks (P5 §2.2, "full speed
// between any two GPUs").
Topology Topology::switched(int k, const Link& link) {
  Topology t;
  t.kind_ = TopologyKind::switched;
  t.devices_ = k;
  t.link_ = link;
  t.port_beta_.assign(2 * static_cast<size_t>(k), link.beta_Bps);
  return t;
}

// Ring: port 2i carries i -> i+1, port 2i+1 carries i -> i-1.
Topology Topology::ring(int k, const Link& link) {
  Topology t = switched(k, link);
  t.kind_ = TopologyKind::ring;
  return t;
}

// Two levels: per GPU an NVSwitch uplink / downlink (4i, 4i+1) and a NIC up / down (4i+2,
// 4i+3) into a non-blocking InfiniBand fabric; GPUDirect RDMA, so no host hop (P5 §2.4).
Topology Topology::two_level(int nodes, int gpus_per_node, const Link& intra, const Link& inter) {
  Topology t;
  t.kind_ = TopologyKind::two_level;
  t.devices_ = nodes * gpus_per_node;
  t.gpus_per_node_ = gpus_per_node;
  t.link_ = intra;
  t.inter_ = inter;
  t.port_beta_.resize(4 * static_cast<size_t>(t.devices_));
  for (int i = 0; i < t.devices_; ++i) {
    t.port_beta_[4 * i] = t.port_beta_[4 * i + 1] = intra.beta_Bps;
    t.port_beta_[4 * i + 2] = t.port_beta_[4 * i + 3] = inter.beta_Bps;
  }
  return t;
}

Topology Topology::custom(int k, const std::vector<PairLink>& links, const Link& fallback,
                          bool has_fallback) {
  Topology t;
  t.kind_ = TopologyKind::custom;
  t.devices_ = k;
  t.link_ = fallback;
  const size_t n = static_cast<size_t>(k) * k;
  t.port_beta_.assign(n, has_fallback ? fallback.beta_Bps : 0.0);
  t.port_alpha_.assign(n, has_fallback ? fallback.alpha_s : 0.0);
  for (const PairLink& p : links) {
    t.port_beta_[static_cast<size_t>(p.from) * k + p.to] = p.link.beta_Bps;
    t.port_alpha_[static_cast<size_t>(p.from) * k + p.to] = p.link.alpha_s;
  }
  return t;
}

bool Topology::uniform() const { return kind_ == TopologyKind::switched; }

double Topology::route(int src, int dst, std::vector<int32_t>* ports) const {
  const int k = devices_;
  switch (kind_) {
    case TopologyKind::switched:
      if (src < k) ports->push_back(2 * src);
      if (dst < k) ports->push_back(2 * dst + 1);
      return link_.alpha_s;
    case TopologyKind::ring: {
      // Wormhole routing the shorter way round: one alpha, every hop's port loaded.
      const int fwd = ((dst - src) % k + k) % k;
      if (fwd <= k - fwd) {
        for (int h = 0, i = src; h < fwd; ++h, i = (i + 1) % k) ports->push_back(2 * i);
      } else {
        for (int h = 0, i = src; h < k - fwd; ++h, i = (i - 1 + k) % k) ports->push_back(2 * i + 1);
      }
      return link_.alpha_s;
    }
    case TopologyKind::two_level:
      if (src / gpus_per_node_ == dst / gpus_per_node_) {
        ports->push_back(4 * src);
        ports->push_back(4 * dst + 1);
        return link_.alpha_s;
      }
      ports->push_back(4 * src + 2);
      ports->push_back(4 * dst + 3);
      return inter_.alpha_s;
    case TopologyKind::custom: {
      const size_t p = static_cast<size_t>(src) * k + dst;
      if (!(port_beta_[p] > 0))
        refuse("no_route", {"field 'links': the schedule sends from device ", std::to_string(src), " to device ",
                            std::to_string(dst),
                            " but the custom topology has no link for that pair; "
                            "allowed: list it in 'links' or give 'link' as the default"});
      ports->push_back(static_cast<int32_t>(p));
      return port_alpha_[p];
    }
  }
  return 0;
}

}  // namespace commlab
