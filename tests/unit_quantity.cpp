// The unit parser and formatter behind exercise.check (exercises/README.md "Exercises contract").
#include <gtest/gtest.h>

#include "api/api.hpp"
#include "base/quantity.hpp"

using commlab::Dimension;
using commlab::format_quantity;
using commlab::parse_quantity;

namespace {

double parsed(const std::string& text, Dimension dim, const std::string& shown) {
  const auto p = parse_quantity(text, dim, shown);
  EXPECT_TRUE(p.has_value()) << text;
  return p ? p->value : -1;
}

int figures(const std::string& text, Dimension dim, const std::string& shown) {
  const auto p = parse_quantity(text, dim, shown);
  EXPECT_TRUE(p.has_value()) << text;
  return p ? p->significant_digits : -1;
}

}  // namespace

TEST(Quantity, TimeUnits) {
  EXPECT_DOUBLE_EQ(parsed("429 us", Dimension::time, "us"), 429e-6);
  EXPECT_DOUBLE_EQ(parsed("429 \xC2\xB5s", Dimension::time, "us"), 429e-6);  // micro sign
  EXPECT_DOUBLE_EQ(parsed("429 \xCE\xBCs", Dimension::time, "us"), 429e-6);  // Greek mu
  EXPECT_DOUBLE_EQ(parsed("0.429 ms", Dimension::time, "us"), 0.429e-3);
  EXPECT_DOUBLE_EQ(parsed("0.429ms", Dimension::time, "us"), 0.429e-3);
  EXPECT_DOUBLE_EQ(parsed("429", Dimension::time, "us"), 429e-6);  // bare: the shown unit
  EXPECT_DOUBLE_EQ(parsed("2 s", Dimension::time, "ms"), 2.0);
  EXPECT_DOUBLE_EQ(parsed("  8.7 ms  ", Dimension::time, "ms"), 8.7e-3);
}

TEST(Quantity, BytesFractionsRatios) {
  EXPECT_DOUBLE_EQ(parsed("150 MB", Dimension::bytes, "MB"), 150e6);
  EXPECT_DOUBLE_EQ(parsed("150MB", Dimension::bytes, "KB"), 150e6);
  EXPECT_DOUBLE_EQ(parsed("1.5e8 B", Dimension::bytes, "MB"), 1.5e8);
  EXPECT_DOUBLE_EQ(parsed("0.15 GB", Dimension::bytes, "MB"), 0.15e9);
  EXPECT_DOUBLE_EQ(parsed("8 MiB", Dimension::bytes, "MB"), 8.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(parsed("8%", Dimension::fraction, "%"), 0.08);
  EXPECT_DOUBLE_EQ(parsed("8 %", Dimension::fraction, "%"), 0.08);
  EXPECT_DOUBLE_EQ(parsed("8.16", Dimension::fraction, "%"), 0.0816);
  EXPECT_DOUBLE_EQ(parsed("5x", Dimension::plain, "x"), 5);
  EXPECT_DOUBLE_EQ(parsed("5 \xC3\x97", Dimension::plain, "x"), 5);
  EXPECT_DOUBLE_EQ(parsed("5", Dimension::plain, "x"), 5);
  EXPECT_DOUBLE_EQ(parsed("6", Dimension::count, ""), 6);
}

TEST(Quantity, TokenCountsFollowTheLecture) {
  EXPECT_DOUBLE_EQ(parsed("16K tokens", Dimension::count, "tokens"), 16384);
  EXPECT_DOUBLE_EQ(parsed("128K", Dimension::count, "tokens"), 131072);
  EXPECT_DOUBLE_EQ(parsed("2,163 tokens", Dimension::count, "tokens"), 2163);
  EXPECT_DOUBLE_EQ(parsed("2163", Dimension::count, "tokens"), 2163);
  EXPECT_DOUBLE_EQ(parsed("16,384", Dimension::count, "tokens"), 16384);
  EXPECT_DOUBLE_EQ(parsed("8 micro-batches", Dimension::count, ""), 8);
  EXPECT_DOUBLE_EQ(parsed("1,048,576", Dimension::count, ""), 1048576);
}

TEST(Quantity, ApproximationWords) {
  EXPECT_DOUBLE_EQ(parsed("about 57 ms", Dimension::time, "ms"), 57e-3);
  EXPECT_DOUBLE_EQ(parsed("~57 ms", Dimension::time, "ms"), 57e-3);
  EXPECT_DOUBLE_EQ(parsed("\xE2\x89\x88 57 ms", Dimension::time, "ms"), 57e-3);  // ≈
  EXPECT_DOUBLE_EQ(parsed("\xE7\xBA\xA6 57 ms", Dimension::time, "ms"), 57e-3);  // 约
  EXPECT_DOUBLE_EQ(parsed("About 5x", Dimension::plain, "x"), 5);
}

TEST(Quantity, SignificantFigures) {
  EXPECT_EQ(figures("0.4287 ms", Dimension::time, "ms"), 4);
  EXPECT_EQ(figures("0.42", Dimension::time, "ms"), 2);
  // As a teacher counts them: trailing zeros of a whole number are not significant.
  EXPECT_EQ(figures("720 KB", Dimension::bytes, "KB"), 2);
  EXPECT_EQ(figures("720. KB", Dimension::bytes, "KB"), 3);
  EXPECT_EQ(figures("7.20e2 KB", Dimension::bytes, "KB"), 3);
  EXPECT_EQ(figures("2,200", Dimension::count, ""), 2);
  EXPECT_EQ(figures("2200", Dimension::count, ""), 2);
  EXPECT_EQ(figures("19000 MB", Dimension::bytes, "MB"), 2);
  EXPECT_EQ(figures("10", Dimension::time, "ms"), 1);
  EXPECT_EQ(figures("100.0", Dimension::time, "ms"), 4);
  EXPECT_EQ(figures("0.0420", Dimension::time, "ms"), 3);
  EXPECT_EQ(figures("0", Dimension::time, "ms"), 1);
  EXPECT_EQ(figures("8.0", Dimension::fraction, "%"), 2);
  EXPECT_EQ(figures("2,163", Dimension::count, ""), 4);
  EXPECT_EQ(figures("1.5e8 B", Dimension::bytes, "B"), 2);
  const auto p = parse_quantity("0.429 ms", Dimension::time, "us");
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->typed, 0.429);
  EXPECT_DOUBLE_EQ(p->factor, 1e-3);
}

TEST(Quantity, ChineseUnitsAndFullWidthForms) {
  EXPECT_DOUBLE_EQ(parsed("429 \xE5\xBE\xAE\xE7\xA7\x92", Dimension::time, "us"), 429e-6);  // 微秒
  EXPECT_DOUBLE_EQ(parsed("0.43\xE6\xAF\xAB\xE7\xA7\x92", Dimension::time, "us"), 0.43e-3);  // 毫秒
  EXPECT_DOUBLE_EQ(parsed("2 \xE7\xA7\x92", Dimension::time, "us"), 2);                       // 秒
  EXPECT_DOUBLE_EQ(parsed("5 \xE7\xBA\xB3\xE7\xA7\x92", Dimension::time, "us"), 5e-9);         // 纳秒
  EXPECT_DOUBLE_EQ(parsed("150 \xE5\x85\x86\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, "MB"), 150e6);  // 兆字节
  EXPECT_DOUBLE_EQ(parsed("720 \xE5\x8D\x83\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, "MB"), 720e3);  // 千字节
  EXPECT_DOUBLE_EQ(parsed("10.7 \xE5\x90\x89\xE5\xAD\x97\xE8\x8A\x82", Dimension::bytes, "MB"), 10.7e9);
  EXPECT_DOUBLE_EQ(parsed("6 \xE6\xAD\xA5", Dimension::count, ""), 6);                        // 步
  EXPECT_DOUBLE_EQ(parsed("3 \xE6\xAC\xA1", Dimension::count, ""), 3);                        // 次
  EXPECT_DOUBLE_EQ(parsed("2,163 \xE4\xB8\xAA token", Dimension::count, "tokens"), 2163);    // 个 token
  EXPECT_DOUBLE_EQ(parsed("5\xE5\x80\x8D", Dimension::plain, "x"), 5);                         // 5倍
  EXPECT_DOUBLE_EQ(parsed("\xEF\xBC\x97\xEF\xBC\x92\xEF\xBC\x90", Dimension::bytes, "KB"), 720e3);  // ７２０
  EXPECT_DOUBLE_EQ(parsed("\xEF\xBC\x98\xEF\xBC\x85", Dimension::fraction, "%"), 0.08);  // ８％
  EXPECT_DOUBLE_EQ(parsed("2\xEF\xBC\x8C" "163", Dimension::count, "tokens"), 2163);           // 2，163
  EXPECT_EQ(figures("\xEF\xBC\x97\xEF\xBC\x92\xEF\xBC\x90", Dimension::bytes, "KB"), 2);
}

TEST(Quantity, CountPrefixesHaveTwoReadings) {
  const auto p = parse_quantity("2.16K", Dimension::count, "tokens");
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->value, 2.16 * 1024);  // the lecture's reading first
  EXPECT_DOUBLE_EQ(p->alt_factor, 1000);
  EXPECT_DOUBLE_EQ(parsed("1G tokens", Dimension::count, ""), 1073741824.0);
  const auto bare = parse_quantity("2163", Dimension::count, "tokens");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->alt_factor, 0);
  EXPECT_TRUE(bare->whole);
}

TEST(Quantity, RejectsJunk) {
  for (const char* junk : {"", "abc", "ms", "12 parsecs", "429 MB", "1,0245", "1e", "1e999", "--5", ".",
                           "1.2.3", "5 5", "NaN", "inf"})
    EXPECT_FALSE(parse_quantity(junk, Dimension::time, "us")) << junk;
  EXPECT_FALSE(parse_quantity("150 Mb", Dimension::bytes, "MB"));  // megabits are not bytes
  EXPECT_FALSE(parse_quantity("8 us", Dimension::fraction, "%"));
  EXPECT_FALSE(parse_quantity("16K", Dimension::bytes, "KB"));
}

TEST(Quantity, Formats) {
  EXPECT_EQ(format_quantity(428.6666e-6, "us", Dimension::time), "428.7 us");
  EXPECT_EQ(format_quantity(720e3, "KB", Dimension::bytes), "720 KB");
  EXPECT_EQ(format_quantity(0.081632, "%", Dimension::fraction), "8.163%");
  EXPECT_EQ(format_quantity(16384, "tokens", Dimension::count), "16,384 tokens");
  EXPECT_EQ(format_quantity(6, "", Dimension::count), "6");
  EXPECT_EQ(format_quantity(5.0716, "x", Dimension::plain), "5.072x");
  EXPECT_EQ(format_quantity(1.5e-4, "ms", Dimension::time), "0.15 ms");
  EXPECT_EQ(format_quantity(48750e-6, "us", Dimension::time), "48,750 us");
  EXPECT_EQ(commlab::format_auto(2e-6, Dimension::time), "2 us");
  EXPECT_EQ(commlab::format_auto(360e9, Dimension::bandwidth), "360 GB/s");
  EXPECT_EQ(commlab::format_auto(10.74e9, Dimension::bytes), "10.74 GB");
  // A power of two of bytes in binary units, as the lecture means its "64 KB" of 65,536 B.
  EXPECT_EQ(format_quantity(65536, "KB", Dimension::bytes), "64 KiB");
  EXPECT_EQ(format_quantity(1024, "B", Dimension::bytes), "1 KiB");
  EXPECT_EQ(commlab::format_auto(16384, Dimension::bytes), "16 KiB");
  EXPECT_EQ(commlab::format_auto(1048576, Dimension::bytes), "1 MiB");
  EXPECT_EQ(commlab::format_auto(8589934592.0, Dimension::bytes), "8 GiB");
  EXPECT_EQ(format_quantity(512, "B", Dimension::bytes), "512 B");
  EXPECT_EQ(format_quantity(3072, "KB", Dimension::bytes), "3.072 KB");
  EXPECT_EQ(format_quantity(65536, "KiB", Dimension::bytes), "64 KiB");
}

TEST(Quantity, FormatThenParseRoundTrips) {
  for (double v : {1.234e-7, 2.178e-6, 428.67e-6, 0.4244e-3, 9.614e-3, 48.75e-3, 0.268, 12.5})
    for (const char* unit : {"ns", "us", "ms", "s"}) {
      const std::string text = format_quantity(v, unit, Dimension::time);
      const auto p = parse_quantity(text, Dimension::time, unit);
      ASSERT_TRUE(p) << text;
      EXPECT_NEAR(p->value, v, 5e-4 * v + 1e-12) << text;
    }
}

TEST(Quantity, RequestBytesStillReadUnits) {
  const auto out =
      commlab::evaluate(nlohmann::json{{"op", "transfer"}, {"link", "nvlink4"}, {"bytes", "256 KB"}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_DOUBLE_EQ(out.at("bytes").get<double>(), 256e3);
}
