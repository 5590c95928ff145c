// pmix_info.hpp - an owning builder for (nested) pmix_info_t arrays.
#pragma once

#include <pmix_common.h>

#include <cstdint>
#include <string>
#include <vector>

namespace impi::startup {

// Owns the infos it holds (PMIX_INFO_LOAD deep-copies values) until destroyed.
class InfoList {
 public:
  InfoList() = default;
  InfoList(const InfoList &) = delete;
  InfoList &operator=(const InfoList &) = delete;
  InfoList(InfoList &&o) noexcept : v_(std::move(o.v_)) { o.v_.clear(); }
  ~InfoList() {
    for (auto &i : v_) PMIX_INFO_DESTRUCT(&i);
  }

  InfoList &add(const char *key, const void *val, pmix_data_type_t t) {
    v_.emplace_back();
    PMIX_INFO_CONSTRUCT(&v_.back());
    PMIX_INFO_LOAD(&v_.back(), key, val, t);
    return *this;
  }
  InfoList &str(const char *key, const std::string &s) { return add(key, s.c_str(), PMIX_STRING); }
  InfoList &u32(const char *key, std::uint32_t x) { return add(key, &x, PMIX_UINT32); }
  InfoList &u16(const char *key, std::uint16_t x) { return add(key, &x, PMIX_UINT16); }
  InfoList &rank(const char *key, pmix_rank_t r) { return add(key, &r, PMIX_PROC_RANK); }
  InfoList &flag(const char *key, bool b) { return add(key, &b, PMIX_BOOL); }
  // Nested array (PMIX_JOB_INFO_ARRAY, PMIX_PROC_INFO_ARRAY, ...); takes `sub` over.
  InfoList &array(const char *key, InfoList &&sub) {
    pmix_data_array_t *da;
    PMIX_DATA_ARRAY_CREATE(da, sub.v_.size(), PMIX_INFO);
    auto *dst = static_cast<pmix_info_t *>(da->array);
    for (size_t i = 0; i < sub.v_.size(); ++i) dst[i] = sub.v_[i];  // ownership moves bitwise
    sub.v_.clear();
    v_.emplace_back();
    PMIX_INFO_CONSTRUCT(&v_.back());
    PMIX_LOAD_KEY(v_.back().key, key);
    v_.back().value.type = PMIX_DATA_ARRAY;
    v_.back().value.data.darray = da;
    return *this;
  }
  pmix_info_t *data() { return v_.empty() ? nullptr : v_.data(); }
  size_t size() const { return v_.size(); }

 private:
  std::vector<pmix_info_t> v_;
};

}  // namespace impi::startup
