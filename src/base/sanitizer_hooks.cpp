// sanitizer_hooks.cpp - built only with IMPI_ASAN: leak reports that are not ours.
//
// OpenPMIx, libevent and hwloc keep small allocations for the life of the
// process (framework registries, strdup'ed keys) and never free them; LSan
// would turn every run into a failure. Leaks in our own code still report.
extern "C" __attribute__((visibility("default"), used)) const char *__lsan_default_suppressions() {
  return "leak:libpmix.so\n"
         "leak:libevent\n"
         "leak:libhwloc.so\n"
         "leak:libmunge.so\n";
}

