// Every registered demo builds, and none of its checks differs from the lecture.
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "demos/demo_table.hpp"

using namespace commlab;

TEST(Demos, NoCheckDiffers) {
  ASSERT_FALSE(demo_table().empty());
  for (const DemoInfo& d : demo_table()) {
    const json tables = d.build();
    ASSERT_TRUE(tables.is_array()) << d.id;
    for (const json& t : tables) {
      EXPECT_FALSE(t.at("checks").empty()) << t.at("id");
      for (const json& c : t.at("checks"))
        EXPECT_NE(c.at("status"), "differs") << d.id << " " << t.at("id") << ": " << c.dump();
    }
  }
}

TEST(Demos, AllThroughTheApi) {
  const json out = evaluate(json{{"op", "demo"}, {"id", "all"}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out.at("summary").at("differs"), 0);
  EXPECT_EQ(out.at("demos").size(), demo_table().size());
}

TEST(Demos, ParallelismDemosArePresent) {
  bool has04 = false, has05 = false;
  for (const DemoInfo& d : demo_table()) {
    has04 |= std::string(d.id) == "04";
    has05 |= std::string(d.id) == "05";
  }
  EXPECT_TRUE(has04);
  EXPECT_TRUE(has05);
}

// §5.3's "the crossover moves to larger messages" holds on one link; the note names the link and
// says its figures, which are the `crossover` op's.
TEST(Demos, CrossoverMovesUpOnOneLinkAndTheNoteSaysSo) {
  auto crossover_mb = [](int devices, const char* link) {
    const json out = evaluate(json{{"op", "crossover"}, {"devices", devices}, {"link", link},
                                   {"algorithms", {"recursive_doubling", "ring"}}});
    EXPECT_EQ(out.at("boundaries").size(), 1u) << out.dump();
    char text[32];
    std::snprintf(text, sizeof text, "%.3g MB", out.at("boundaries").at(0).at("bytes").get<double>() / 1e6);
    return std::string(text);
  };
  const json out = evaluate(json{{"op", "demo"}, {"id", "03"}});
  std::string note;
  for (const json& t : out.at("demos").at(0).at("tables"))
    if (t.at("id") == "03-2") note = t.at("notes").dump();
  ASSERT_FALSE(note.empty()) << out.dump().substr(0, 400);
  EXPECT_NE(note.find("on one link, NVLink 4"), std::string::npos) << note;
  EXPECT_NE(note.find("from " + crossover_mb(8, "nvlink4") + " with 8 devices to " + crossover_mb(64, "nvlink4") + " with 64, larger"), std::string::npos) << note;
  EXPECT_NE(note.find("On InfiniBand with 64 devices it is " + crossover_mb(64, "ib_ndr")), std::string::npos) << note;
}
