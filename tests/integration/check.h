/* check.h - the CHECK macro of the integration test programs: on failure
 * prints "rank R: <message>" (the first 10 times) and counts it in
 * `failures`; the program declares `rank` and `failures` and exits nonzero
 * when failures > 0. */
#ifndef IMPI_TESTS_CHECK_H
#define IMPI_TESTS_CHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                    \
  do {                                      \
    if (!(cond)) {                          \
      if (failures++ < 10) {                \
        fprintf(stderr, "rank %d: ", rank); \
        fprintf(stderr, __VA_ARGS__);       \
        fprintf(stderr, "\n");              \
      }                                     \
    }                                       \
  } while (0)

#endif
