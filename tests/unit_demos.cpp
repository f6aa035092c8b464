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
