# shellcheck shell=bash
# tests/conformance/fetch.sh - sourced by the conformance scripts
# (mpich_suite.sh, hdf5_testpar.sh, pnetcdf_tests.sh): the one place that
# fetches a third-party source tarball from Debian's archive and checks it.
# The sourcing script defines msg and die.

# fetch_tarball CACHE TARBALL URL SHA256
# Leaves CACHE/TARBALL: fetched from URL (curl, else wget) when it is not
# there yet, then its sha256 checked; a mismatch removes it and ends the
# script (die). Returns 1 when it could not be fetched: the caller skips
# or dies, as its suite's rules say.
fetch_tarball() {
  local cache=$1 tarball=$2 url=$3 sum=$4
  if [ ! -f "$cache/$tarball" ]; then
    msg "fetching $url"
    if ! { curl -fsSL --retry 3 -o "$cache/$tarball.part" "$url" ||
      wget -q -O "$cache/$tarball.part" "$url"; }; then
      rm -f "$cache/$tarball.part"
      return 1
    fi
    mv "$cache/$tarball.part" "$cache/$tarball"
  fi
  echo "$sum  $cache/$tarball" | sha256sum -c --quiet - ||
    { rm -f "$cache/$tarball"; die "checksum mismatch for $tarball (removed; run again)"; }
}
