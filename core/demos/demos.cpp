// The demo registry and the "demo" op, added to the request API by the native doors.
#include "demos/demo_table.hpp"
#include "base/error.hpp"
#include "api/ops.hpp"

namespace commlab {

const std::vector<DemoInfo>& demo_table() {
  static const std::vector<DemoInfo> demos = {
      {"01", "Interconnects and the alpha-beta model (P5 §2-3)", demo_01},
      {"02", "Collectives: the six operations, per-message bookkeeping, MoE all-to-all (P5 §4)", demo_02},
      {"03", "All-reduce algorithms, hierarchy, NCCL (P5 §5)", demo_03},
      {"04", "Communication patterns of parallelism (P5 §6)", demo_04},
      {"05", "Overlapping computation and communication (P5 §7)", demo_05},
  };
  return demos;
}

namespace {
json op_demo(Request& r) {
  std::vector<std::string> ids = {"all"};
  for (const DemoInfo& d : demo_table()) ids.push_back(d.id);
  const std::string id = r.name("id", ids);
  r.finish();
  json demos = json::array();
  int match = 0, close = 0, differs = 0;
  for (const DemoInfo& d : demo_table()) {
    if (id != "all" && id != d.id) continue;
    json tables = d.build();
    for (const json& t : tables)
      for (const json& c : t.at("checks")) {
        const std::string s = c.at("status");
        (s == "match" ? match : s == "close" ? close : differs)++;
      }
    demos.push_back({{"id", d.id}, {"title", d.title}, {"tables", tables}});
  }
  return {{"demos", demos}, {"summary", {{"match", match}, {"close", close}, {"differs", differs}}}};
}

}  // namespace

void add_demo_op() {
  add_op({"demo", op_demo, "a table of the lecture's code 01-05, engine beside lecture (native only)"});
}

}  // namespace commlab
