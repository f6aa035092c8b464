// Answers written through one interface, either straight to text or as a json tree. The
// calculator ops write text: building a tree of a dozen members, then printing it, cost more
// than computing them. The text is byte for byte what nlohmann's dump() prints for the tree
// the same calls build: members in ascending key order (its objects are std::maps; the text
// writer sorts an object's members when it closes), numbers by nlohmann's own formatting.
#pragma once
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace commlab {

class JsonWriter {
 public:
  virtual ~JsonWriter() = default;
  virtual void begin_object() = 0;
  virtual void end_object() = 0;
  virtual void begin_array() = 0;
  virtual void end_array() = 0;
  /// The next member's key: a string that outlives the object (a literal).
  virtual void key(std::string_view k) = 0;
  virtual void value(double x) = 0;
  virtual void value(long long x) = 0;
  virtual void value(bool b) = 0;
  virtual void value(std::string_view s) = 0;
  virtual void value(std::nullptr_t) = 0;
  /// Room for an answer of about `bytes` (a text writer grows by doubling otherwise).
  virtual void reserve(size_t bytes) { (void)bytes; }

  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(const std::vector<double>& xs) {
    begin_array();
    for (double x : xs) value(x);
    end_array();
  }
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  void value(I x) {
    value(static_cast<long long>(x));
  }
  /// Member `k`: an array of one object per item, whose members `members(item)` writes.
  template <class Items, class Members>
  void objects(std::string_view k, const Items& items, Members members) {
    key(k);
    begin_array();
    for (const auto& x : items) {
      begin_object();
      members(x);
      end_object();
    }
    end_array();
  }
  template <class T>
  JsonWriter& member(std::string_view k, const T& v) {
    key(k);
    value(v);
    return *this;
  }
};

/// JSON text, as the tree's dump(-1, ' ', false, replace) prints it.
class JsonTextWriter final : public JsonWriter {
 public:
  /// `root_key`, `root_value`: a string member the root object gets in its place in key order
  /// (an answer's "op"), written when the first key above it comes or the root closes.
  JsonTextWriter(std::string_view root_key = {}, std::string_view root_value = {});
  void begin_object() override;
  void end_object() override;
  void begin_array() override;
  void end_array() override;
  void key(std::string_view k) override;
  void value(double x) override;
  void value(long long x) override;
  void value(bool b) override;
  void value(std::string_view s) override;
  void value(std::nullptr_t) override;
  void reserve(size_t bytes) override {
    if (out_.size() < bytes) out_.resize(bytes);
  }
  using JsonWriter::value;

  std::string take() {
    out_.resize(size_);
    return std::move(out_);
  }
  /// A number was not finite (the text reads null where the tree holds it).
  bool saw_non_finite() const { return non_finite_; }

 private:
  // Fixed room, no allocation: the answers written as text nest 3 deep with a few dozen
  // members open at once; more is a writer bug (std::logic_error).
  static constexpr size_t kMaxLevels = 16, kMaxMembers = 96;
  struct Level {
    bool object;
    bool sorted;           // members so far in ascending key order
    size_t count;          // members or elements written
    size_t first_member;   // index of the object's first member in members_
  };
  struct Member {
    std::string_view key;
    size_t start;          // offset of the key's opening quote in out_
  };
  void before_value();
  void sort_members(const Level& l);
  void put(char c) {
    if (size_ == out_.size()) out_.resize(2 * out_.size());
    out_[size_++] = c;
  }
  void put(const char* p, size_t n);
  void root_member_before(std::string_view k);

  Level levels_[kMaxLevels];
  size_t depth_ = 0;
  Member members_[kMaxMembers];
  size_t n_members_ = 0;
  std::string out_;        // written up to size_, the rest is room
  size_t size_ = 0;
  bool non_finite_ = false;
  std::string_view root_key_, root_value_;
  bool root_member_done_;
};

/// A json tree, the same as the text (answers that stay trees share writer functions).
class JsonTreeWriter final : public JsonWriter {
 public:
  void begin_object() override { open(nlohmann::json::object()); }
  void end_object() override { stack_.pop_back(); }
  void begin_array() override { open(nlohmann::json::array()); }
  void end_array() override { stack_.pop_back(); }
  void key(std::string_view k) override { key_ = std::string(k); }
  void value(double x) override { place(x); }
  void value(long long x) override { place(x); }
  void value(bool b) override { place(b); }
  void value(std::string_view s) override { place(std::string(s)); }
  void value(std::nullptr_t) override { place(nullptr); }
  using JsonWriter::value;

  nlohmann::json take() { return std::move(root_); }

 private:
  nlohmann::json* place(nlohmann::json v);
  void open(nlohmann::json v) { stack_.push_back(place(std::move(v))); }

  nlohmann::json root_;
  std::vector<nlohmann::json*> stack_;
  std::string key_;
};

}  // namespace commlab
