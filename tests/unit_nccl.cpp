// NCCL protocols and selection (P5 §5.6, code 03 demo 4).
#include <gtest/gtest.h>

#include "model/nccl.hpp"
#include "base/units.hpp"

using namespace commlab;
using namespace commlab::units;

namespace {
NcclProtocol fastest_ring_protocol(double bytes) {
  return nccl_select(8, bytes, catalogue_link("nvlink4"), NcclTransport::nvlink, {NcclAlgorithm::ring})
      .best.protocol;
}
}  // namespace

TEST(Nccl, LectureCrossoversForAnEightGpuRing) {
  for (double n : {1 * kB, 4 * kB, 16 * kB, 64 * kB}) EXPECT_EQ(fastest_ring_protocol(n), NcclProtocol::LL) << n;
  EXPECT_EQ(fastest_ring_protocol(16 * MB), NcclProtocol::LL128);
  for (double n : {256 * MB, 1 * GB, 4 * GB}) EXPECT_EQ(fastest_ring_protocol(n), NcclProtocol::Simple) << n;
}

TEST(Nccl, ProtocolOrderIsLatencyAgainstBandwidth) {
  for (NcclTransport t : {NcclTransport::nvlink, NcclTransport::pci, NcclTransport::net}) {
    const ProtocolModel ll = protocol_model(NcclAlgorithm::ring, NcclProtocol::LL, t);
    const ProtocolModel ll128 = protocol_model(NcclAlgorithm::ring, NcclProtocol::LL128, t);
    const ProtocolModel simple = protocol_model(NcclAlgorithm::ring, NcclProtocol::Simple, t);
    EXPECT_LT(ll.step_latency_s, ll128.step_latency_s);
    EXPECT_LT(ll128.step_latency_s, simple.step_latency_s);
    EXPECT_LT(ll.bandwidth_factor, ll128.bandwidth_factor);
    EXPECT_LT(ll128.bandwidth_factor, simple.bandwidth_factor);
  }
}

TEST(Nccl, SelectionPicksTheCheapestCandidate) {
  const Link ib = catalogue_link("ib_ndr");
  for (double n = 1e3; n < 1e10; n *= 7) {
    const NcclChoice c = nccl_select(32, n, ib, NcclTransport::net, {NcclAlgorithm::ring, NcclAlgorithm::tree});
    EXPECT_EQ(c.candidates.size(), 6u);
    for (const NcclEstimate& e : c.candidates) EXPECT_LE(c.best.time_s, e.time_s);
  }
  // Trees win small messages on many ranks (log steps), rings win large ones.
  EXPECT_EQ(nccl_select(256, 4 * kB, ib, NcclTransport::net, {NcclAlgorithm::ring, NcclAlgorithm::tree})
                .best.algorithm,
            NcclAlgorithm::tree);
  EXPECT_EQ(nccl_select(8, 4 * GB, ib, NcclTransport::net, {NcclAlgorithm::ring, NcclAlgorithm::tree})
                .best.algorithm,
            NcclAlgorithm::ring);
}
