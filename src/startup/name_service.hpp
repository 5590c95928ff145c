// name_service.hpp - impirun's name service: MPI_Publish_name and friends
// (PMIx publish/lookup/unpublish, called on PMIx's thread and answered at
// once). Scope: this launcher's jobs. With IMPI_NAME_DIR set, names also
// live there, one file each, so that the jobs of several impirun
// invocations that share the directory see them (like MPICH's file name
// server).
#pragma once

#include <pmix_common.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace impi::startup {

class NameService {
 public:
  pmix_status_t publish(const std::string &key, const std::string &value);
  std::optional<std::string> lookup(const std::string &key);
  // False when this launcher's jobs did not publish `key`.
  bool unpublish(const std::string &key);
  // Names still published when the job ends leave the directory with it.
  void unpublish_all();

 private:
  std::mutex mu_;
  std::map<std::string, std::string> names_;
};

}  // namespace impi::startup
