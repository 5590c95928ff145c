#!/usr/bin/env bash
# Installs the build into a fresh prefix, moves the tree elsewhere (the
# install is relocatable), and checks it as a user would: the file layout
# and SONAME, mpicc + impirun from the install, pkg-config, CMake's
# FindMPI through the installed wrappers and find_package(impi), impi_info.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$work/first" > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
mv "$work/first" "$work/moved"
p=$work/moved
libdir=$(cd "$p" && ls -d lib*/ | head -1); libdir=${libdir%/}
for f in bin/impirun bin/mpiexec bin/mpirun bin/mpicc bin/mpicxx bin/mpic++ bin/impi_info include/mpi.h \
         "$libdir/libmpi.so" "$libdir/libmpi.so.0" "$libdir/pkgconfig/mpi.pc" "$libdir/cmake/impi/impiConfig.cmake"; do
  [ -e "$p/$f" ] || fail "$f is not installed"
done
readelf -d "$p/$libdir/libmpi.so.0" | grep -q "SONAME.*libmpi.so.0" || fail "libmpi has no SONAME libmpi.so.0"
# mpicc and impirun from the (moved) install
"$p/bin/mpicc" "$src/tests/cmake_project/hello.c" -o "$work/hello" || fail "installed mpicc"
"$p/bin/mpicc" -showme | grep -q "$p/include" || fail "mpicc -showme does not point into the install"
out=$("$p/bin/mpirun" -np 2 "$work/hello") || fail "installed mpirun"
echo "$out" | grep -q "rank 1 of 2" || fail "hello did not run: $out"
# pkg-config
PKG_CONFIG_PATH=$p/$libdir/pkgconfig cc "$src/tests/cmake_project/hello.c" -o "$work/hello_pc" \
  $(PKG_CONFIG_PATH=$p/$libdir/pkgconfig pkg-config --cflags --libs mpi) || fail "pkg-config mpi"
"$p/bin/impirun" -np 1 "$work/hello_pc" | grep -q "rank 0 of 1" || fail "the pkg-config build did not run"
# CMake: FindMPI through the installed wrappers, then find_package(impi)
bash "$src/tests/cmake_project/run.sh" "$p/bin" "$work/cmake_project" > "$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; fail "FindMPI project"; }
mkdir -p "$work/pkgproj"
cat > "$work/pkgproj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(uses_impi_package C)
find_package(impi REQUIRED)
add_executable(hello hello.c)
target_link_libraries(hello PRIVATE impi::mpi)
CM
cp "$src/tests/cmake_project/hello.c" "$work/pkgproj/"
cmake -S "$work/pkgproj" -B "$work/pkgbuild" -DCMAKE_PREFIX_PATH="$p" > "$work/pkg.log" 2>&1 &&
  cmake --build "$work/pkgbuild" >> "$work/pkg.log" 2>&1 || { cat "$work/pkg.log"; fail "find_package(impi)"; }
LD_LIBRARY_PATH=$p/$libdir "$p/bin/impirun" -np 1 "$work/pkgbuild/hello" | grep -q "rank 0 of 1" ||
  fail "the find_package(impi) build did not run"
# autotools: AC_PROG_CC([mpicc]) with the install first in PATH
if command -v autoreconf >/dev/null; then
  cp -r "$src/tests/autotools_project" "$work/at"
  cp "$src/tests/cmake_project/hello.c" "$work/at/"
  (cd "$work/at" && export PATH=$p/bin:$PATH && autoreconf -fi && ./configure && make) > "$work/at.log" 2>&1 ||
    { cat "$work/at.log"; fail "autotools project"; }
  grep -q "^CC='mpicc'" "$work/at/config.log" || fail "configure did not pick mpicc"
  "$p/bin/impirun" -np 2 "$work/at/hello" | grep -q "rank 1 of 2" || fail "the autotools build did not run"
else
  echo "skipped the autotools project: autoreconf is not installed (scripts/setup.sh installs it)"
fi
# a plain Makefile
cp -r "$src/tests/make_project" "$work/mk"
cp "$src/tests/cmake_project/hello.c" "$work/mk/"
PATH=$p/bin:$PATH make -C "$work/mk" > "$work/mk.log" 2>&1 || { cat "$work/mk.log"; fail "plain Makefile"; }
"$p/bin/impirun" -np 2 "$work/mk/hello" | grep -q "rank 1 of 2" || fail "the Makefile build did not run"
# Fortran (when built): mpifort with mpif.h, use mpi and use mpi_f08; FindMPI's Fortran
if [ -e "$p/bin/mpifort" ]; then
  for f in bin/mpif77 bin/mpif90 include/mpif.h include/mpi.mod include/mpi_f08.mod include/mpi_f08_types.mod "$libdir/libmpifort.so"; do
    [ -e "$p/$f" ] || fail "$f is not installed"
  done
  for b in 1 2 3; do
    "$p/bin/mpifort" -cpp -DBINDING=$b "$src/tests/fortran/hello.F90" -o "$work/fhello$b" -J "$work" ||
      fail "installed mpifort (binding $b)"
    "$p/bin/impirun" -np 2 "$work/fhello$b" | grep -q "rank 1 of 2" || fail "the mpifort build $b did not run"
  done
  PKG_CONFIG_PATH=$p/$libdir/pkgconfig gfortran -cpp -DBINDING=2 "$src/tests/fortran/hello.F90" \
    -o "$work/fhello_pc" -J "$work" $(PKG_CONFIG_PATH=$p/$libdir/pkgconfig pkg-config --cflags --libs mpi-fort) ||
    fail "pkg-config mpi-fort"
  "$p/bin/impirun" -np 2 "$work/fhello_pc" | grep -q "rank 1 of 2" || fail "the pkg-config Fortran build did not run"
  cmake -S "$src/tests/cmake_project_fortran" -B "$work/fcm" -DMPI_Fortran_COMPILER="$p/bin/mpifort" \
    > "$work/fcm.log" 2>&1 && cmake --build "$work/fcm" >> "$work/fcm.log" 2>&1 ||
    { cat "$work/fcm.log"; fail "FindMPI Fortran"; }
  "$p/bin/impirun" -np 2 "$work/fcm/hello" | grep -q "rank 1 of 2" || fail "the FindMPI Fortran build did not run"
  # autotools: AC_PROG_FC([mpifort]) with the install first in PATH
  if command -v autoreconf >/dev/null; then
    cp -r "$src/tests/autotools_project_fortran" "$work/fat"
    cp "$src/tests/fortran/hello.F90" "$work/fat/"
    (cd "$work/fat" && export PATH=$p/bin:$PATH && autoreconf -fi && ./configure && make) \
      > "$work/fat.log" 2>&1 || { cat "$work/fat.log"; fail "autotools Fortran project"; }
    grep -q "^FC='mpifort'" "$work/fat/config.log" || fail "configure did not pick mpifort"
    "$p/bin/impirun" -np 2 "$work/fat/fhello" | grep -q "rank 1 of 2" ||
      fail "the autotools Fortran build did not run"
  fi
fi
# impi_info
"$p/bin/impi_info" | grep -q "IMPI_DATALEN = 65536" || fail "impi_info lists no tunables"
"$p/bin/impi_info" --functions --parsable | grep -q "^function:MPI_Send:yes" || fail "impi_info --functions"
echo ok
