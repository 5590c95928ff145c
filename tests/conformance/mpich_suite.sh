#!/usr/bin/env bash
# mpich_suite.sh - run MPICH's own MPI test suite (test/mpi of MPICH 4.0.2)
# against impi and summarise the results per directory.
#
# Usage: tests/conformance/mpich_suite.sh [DIR...]
#   DIR...   top-level test directories to run (default: all of attr coll
#            comm datatype errhan group info init io mpi_t part pt2pt rma spawn
#            topo threads). `errors` (tests of argument checking, which MPI leaves
#            to the implementation) runs only when named.
# Environment:
#   IMPI_BUILD                 impi build tree (default: <repo>/build); its
#                              bin/ must hold mpicc and impirun
#   IMPI_MPICH_SUITE_DIR       cache dir (default: <repo>/build/mpich-suite):
#                              holds the tarball, the extracted source and
#                              the out-of-tree build (work/)
#   MPIEXEC_TIMEOUT            per-test time limit in seconds (default 60);
#                              a test's own timeLimit= from its testlist is
#                              honoured but capped at IMPI_SUITE_MAX_TIMEOUT
#                              (default 120)
#   IMPI_SUITE_LAUNCHER_ARGS   extra impirun arguments, e.g. "--clients 2" to
#                              split every job into IMPI clients (a job with
#                              fewer processes than clients gets one client
#                              per process; a 1-process job runs plainly)
#   IMPI_SUITE_RESULTS         result file (default:
#                              <repo>/bench/results/mpich_suite.txt)
#   IMPI_SUITE_RECONFIGURE=1   configure again even if already configured
#   IMPI_SUITE_FORTRAN=1       configure with Fortran (impi's mpif77/mpifort,
#                              or Open MPI's) in its own work tree
#                              (work-fortran) and allow the f77 f90 f08
#                              directories, e.g. `IMPI_SUITE_FORTRAN=1
#                              tests/conformance/mpich_suite.sh f77 f90 f08`
#   IMPI_SUITE_MPI=openmpi     run the same suite against Open MPI (Debian's
#                              mpicc.openmpi / mpirun.openmpi, loopback only,
#                              --oversubscribe) instead of impi, in its own
#                              work tree (work-openmpi); results default to
#                              bench/results/mpich_suite_openmpi.txt. It is
#                              the yardstick for "fails on Open MPI too".
#                              IMPI_SUITE_LAUNCHER_ARGS then goes to mpirun.
#
# What it does: fetches mpich_4.0.2.orig.tar.xz from deb.debian.org when it is
# not in the cache (sha256 checked), extracts test/mpi, configures it out of
# tree once against impi's mpicc and a generated launcher wrapper (around
# impirun with --timeout and coreutils timeout as a backstop), builds the
# selected directories with `make -k` (a test that does not compile does not
# stop the others; runtests then reports it as failed, with the compiler's
# output), runs MPICH's runtests with -junitfile/-tapfile, and writes a table
# (directory, tests, passed, failed, left out) plus every failing test with a
# one-line reason to the result file (also printed).
#
# Left out, and why:
#   impls/ft, ckpoint         MPICH's fault-tolerance and checkpoint extensions
#   f77 f90 f08 cxx           Fortran (IMPI_SUITE_FORTRAN=1 runs them) and C++
#   perf                      performance tests, not conformance (and off in
#                             strict mode)
#   impls                     tests of MPICH internals (impls/mpich)
#   basic                     MPICH's own top-level testlist leaves it out
#   testlist.dtp, .cvar, .gpu DTPools-generated datatype sweeps (thousands of
#                             runs; --disable-dtpools), MPICH CVAR variants
#                             of other tests, GPU tests
#   MPIX tests, xfail tests   configured with --enable-strictmpi: MPICH
#                             extensions are not run; xfail tests are skipped
#   MPI-4-only tests          a test that does not compile or link only
#                             because of MPI-4 or MPICH-only (MPIX_, QMPI) names (MPI_Session_*, MPI_Isendrecv,
#                             persistent collectives MPI_*_init, large-count
#                             *_c functions, MPI_Info_create_env, ...) is
#                             taken out of the run and listed as left out
#                             with the names it needs
#
# Exit status: 0 when the suite ran (whatever passed), nonzero when it could
# not be fetched, configured or run at all.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${IMPI_BUILD:-$here/build}" && pwd)
cache=${IMPI_MPICH_SUITE_DIR:-$here/build/mpich-suite}
timeout_s=${MPIEXEC_TIMEOUT:-60}
max_timeout=${IMPI_SUITE_MAX_TIMEOUT:-120}
launcher_args=${IMPI_SUITE_LAUNCHER_ARGS:-}
suite_mpi=${IMPI_SUITE_MPI:-impi}
case $suite_mpi in
  impi) results=${IMPI_SUITE_RESULTS:-$here/bench/results/mpich_suite.txt}; workname=work; mpi_label=impi ;;
  openmpi) results=${IMPI_SUITE_RESULTS:-$here/bench/results/mpich_suite_openmpi.txt}; workname=work-openmpi
           mpi_label="Open MPI $(mpirun.openmpi --version 2>/dev/null | awk 'NR == 1 {print $NF}')" ;;
  *) echo "mpich_suite: error: IMPI_SUITE_MPI must be impi or openmpi" >&2; exit 2 ;;
esac

version=4.0.2
tarball=mpich_$version.orig.tar.xz
url=http://deb.debian.org/debian/pool/main/m/mpich/$tarball
sha256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860
default_dirs=(attr coll comm datatype errhan group info init io mpi_t part pt2pt rma spawn topo threads)
left_out_dirs="ft ckpoint (MPICH fault tolerance / checkpointing);
  f77 f90 f08 cxx (Fortran / C++ bindings); perf (performance); impls (MPICH implementation-specific);
  basic (not in MPICH's own testlist)"

export LC_ALL=C  # plain quotes in compiler messages
msg() { echo "mpich_suite: $*" >&2; }
die() { msg "error: $*"; exit 2; }
# shellcheck source=tests/conformance/fetch.sh
. "$here/tests/conformance/fetch.sh"

for tool in perl make curl sha256sum tar timeout; do
  command -v "$tool" >/dev/null || die "$tool is needed"
done
if [ "$suite_mpi" = openmpi ]; then
  command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null ||
    die "Open MPI is not installed (apt-get install openmpi-bin libopenmpi-dev)"
  cc=$(command -v mpicc.openmpi)
else
  [ -x "$build/bin/mpicc" ] && [ -x "$build/bin/impirun" ] ||
    die "no mpicc/impirun in $build/bin (build impi first: cmake --build $build)"
  cc=$build/bin/mpicc
fi

fortran=${IMPI_SUITE_FORTRAN:-0}
fortran_dirs=""
if [ "$fortran" = 1 ]; then
  workname=$workname-fortran
  fortran_dirs="f77 f90 f08"
  if [ "$suite_mpi" = openmpi ]; then
    f77=$(command -v mpif77.openmpi) fc=$(command -v mpifort.openmpi)
  else
    f77=$build/bin/mpif77 fc=$build/bin/mpifort
  fi
  [ -x "$fc" ] && [ -x "$f77" ] || die "no Fortran wrappers ($fc): build impi with Fortran"
fi
if [ $# -gt 0 ]; then dirs=("$@"); else dirs=("${default_dirs[@]}"); fi
for d in "${dirs[@]}"; do
  case " ${default_dirs[*]} errors $fortran_dirs " in
    *" $d "*) ;;
    *) die "unknown or left-out directory '$d' (choose from: ${default_dirs[*]} errors $fortran_dirs)" ;;
  esac
done

# ---- summarise (a function: also run alone with IMPI_SUITE_SUMMARY_ONLY=1) ---
summarise() {
mkdir -p "$(dirname "$results")"
WORK=$work LAUNCH_LOG=$work/launch.log LEFTOUT=$work/leftout.txt DIRS="${dirs[*]}" \
LEFT_OUT_DIRS="$left_out_dirs" MPI_LABEL="$mpi_label" ELAPSED=$elapsed LIBCHANGED=${lib_changed:-no} TIMEOUT=$timeout_s LARGS="$launcher_args" \
perl -e '
use strict; use warnings;
my %S; my @fails;
my @dirs = split " ", $ENV{DIRS};
$S{$_} = {tests=>0, pass=>0, fail=>0, skip=>0, left=>0} for @dirs;
# launch log: "cwd|-n N ./prog args|rc=R|t=T|secs=S"; keep the last per key
my %launch;
if (open my $L, "<", $ENV{LAUNCH_LOG}) {
  while (<$L>) { chomp; my ($cwd, $cmd, $rc, $t, $secs) = split /\|/;
    next unless defined $secs; $cwd =~ s{^\Q$ENV{WORK}\E/?}{};
    my ($np, $prog, $args) = $cmd =~ /-n (\d+) .*?\.\/(\S+) ?(.*)$/ or next;
    $launch{join " ", "$cwd/$prog", $np, grep { $_ ne "" } split / /, $args} = [$rc =~ s/rc=//r, $t =~ s/t=//r, $secs =~ s/secs=//r]; }
}
my (%left, %leftn);
if (open my $F, "<", $ENV{LEFTOUT}) { while (<$F>) { chomp; my ($t, $n) = split /\|/; $left{$t} = $n; $leftn{$t}++;
  my ($d) = split m{/}, $t; $S{$d}{left}++ if $S{$d}; } }
sub reason {
  my ($key, $out, $time) = @_;
  my @raw = grep { /\S/ && !/^Test output/ } map { s/^## ?//r } split /\n/, $out;
  my $noerr = grep { /^\s*No Errors\s*$/ } @raw;
  my @l = grep { !/^\s*No Errors\s*$/ } @raw;
  my $all = join "\n", @l;
  if ($all =~ /Failed to build/) {
    my %u; $u{$1}++ while $all =~ /undefined reference to .(\w+)/g;
    $u{$1}++ while $all =~ /.(MPIX?_\w+). undeclared/g;
    my $m = join(", ", sort keys %u);
    $m .= " (MPI-1 names removed in MPI-3.0)" if %u && !grep { !/^MPI_Type_(hindexed|hvector|struct)$|^MPI_(Address|Attr_\w+|Keyval_\w+|Errhandler_(create|get|set)|Type_(extent|lb|ub))$/ } keys %u;
    return "build: missing $m" if %u;
    my ($e) = grep { /error:/ } @l; $e //= $l[1] // "unknown";
    $e =~ s/^.*?error: //;
    $e .= " (test assumes integer MPI handles)" if $e =~ /switch quantity not an integer|pointers are not permitted/;
    return "build: $e";
  }
  my $lr = $launch{$key};
  return "timeout (${\ ($lr ? $lr->[1] : $ENV{TIMEOUT})} s)" if $all =~ /ran longer than --timeout/ || ($lr && ($lr->[0] == 124 || $lr->[0] == 137));
  my $rc = $lr ? " [exit $lr->[0]]" : "";
  return "\" No Errors\" printed $noerr times (runtests wants it once)$rc" if !@l && $noerr > 1;
  return "no output, no \" No Errors\"$rc" if !@l;
  my ($found) = grep { /^\s*Found \d+ errors?/ } @l;
  # the MPI error impi reports, else what the test says, else the launcher
  my ($pick) = grep { /^impi\[rank \d+\]: error:/ } @l;
  ($pick) = grep { !/^impirun:/ && !/^\s*Found \d+ errors?\s*$/ } @l unless defined $pick;
  ($pick) = grep { !/^impirun:/ } @l unless defined $pick;
  $pick //= $l[0];
  $pick =~ s/\s+/ /g; $pick =~ s/^ //; $pick =~ s/^impi\[rank \d+\]: error: //;
  $pick =~ s/ \(the README lists what is missing\)//; $pick =~ s/; MPI_ERRORS_ARE_FATAL\)/)/;
  $pick = substr($pick, 0, 160);
  $found =~ s/^\s+|\s+$//g if defined $found;
  $pick .= " [$found]" if defined $found && $pick !~ /Found \d+ error/;
  return $pick . $rc;
}
open my $J, "<", "$ENV{WORK}/summary.junit.xml" or die;
local $/; my $x = <$J>;
while ($x =~ /<testcase name="\d* - \.\/([^"]*?)" ?(?:time="([^"]*)")?>(.*?)<\/testcase>/gs) {
  my ($name, $time, $body) = ($1, $2, $3);
  $name =~ s/\s+$//; my ($path, $np, @rest) = split / /, $name;
  my ($d) = split m{/}, $path; $S{$d} //= {tests=>0, pass=>0, fail=>0, skip=>0, left=>0};
  if ($body =~ /<skipped/) { $S{$d}{skip}++; next; }
  $S{$d}{tests}++;
  if ($body =~ /<failure.*?CDATA\[(.*?)\]\]>/s) {
    $S{$d}{fail}++; my $out = $1; $out =~ s/^.*?\.\.\.\n//s;
    push @fails, [$d, join(" ", $path, ($np ne "" ? "np=$np" : ()), @rest), reason(join(" ", $path, $np, grep { !/^[A-Z_][A-Z0-9_]*=/ } @rest), $out, $time)];
  } else { $S{$d}{pass}++; }
}
my ($T, $P, $F, $K, $LO) = (0, 0, 0, 0, 0);
print "MPICH $ENV{WORK} test/mpi 4.0.2 against $ENV{MPI_LABEL}: ", scalar(localtime), "\n";
print "per-test timeout $ENV{TIMEOUT} s; launcher args: \x27$ENV{LARGS}\x27; run time $ENV{ELAPSED} s\n";
print "WARNING: impi\x27s libmpi.so changed during the run (rebuilt?): some results may be spurious\n" if $ENV{LIBCHANGED} eq "yes";
print "\n";
printf "%-10s %6s %7s %7s %8s %9s\n", "directory", "tests", "passed", "failed", "skipped", "left_out";
for my $d (@dirs, grep { my $k = $_; !grep { $_ eq $k } @dirs } sort keys %S) {
  my $s = $S{$d};
  printf "%-10s %6d %7d %7d %8d %9d\n", $d, $s->{tests}, $s->{pass}, $s->{fail}, $s->{skip}, $s->{left};
  $T += $s->{tests}; $P += $s->{pass}; $F += $s->{fail}; $K += $s->{skip}; $LO += $s->{left};
}
printf "%-10s %6d %7d %7d %8d %9d\n", "total", $T, $P, $F, $K, $LO;
print "(skipped: xfail or non-strict tests runtests itself skips; left_out: MPI-4-only tests, below)\n";
print "\nleft out (whole directories):\n  $ENV{LEFT_OUT_DIRS}\n";
print "\nleft out (MPI-4 / MPICH-specific: the build needs these names):\n";
for my $t (sort keys %left) { print "  $t", ($leftn{$t} > 1 ? " (x$leftn{$t})" : ""), ": $left{$t}\n"; }
print "\nfailing tests:\n";
my $cur = "";
for my $f (@fails) { if ($f->[0] ne $cur) { $cur = $f->[0]; print "[$cur]\n"; } print "  $f->[1]: $f->[2]\n"; }
print "\n$P passed, $F failed\n";
' | sed "s|$work|build/mpich-suite/$workname|; s|^MPICH build/mpich-suite/$workname test/mpi|MPICH test/mpi|" >"$results.new"
mv "$results.new" "$results"
cat "$results"
msg "results in $results (raw: $work/summary.junit.xml, $work/runtests.log)"
}

work=$cache/$workname
if [ "${IMPI_SUITE_SUMMARY_ONLY:-0}" = 1 ]; then
  [ -s "$work/summary.junit.xml" ] && [ -f "$work/last_run.env" ] || die "no earlier run in $work"
  # shellcheck disable=SC1091
  . "$work/last_run.env"
  summarise
  exit 0
fi

# ---- fetch and extract ------------------------------------------------------
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
src=$cache/mpich-$version/test/mpi
if [ ! -x "$src/configure" ]; then
  fetch_tarball "$cache" "$tarball" "$url" "$sha256" || die "could not fetch $url"
  msg "extracting test/mpi from $tarball"
  tar -C "$cache" -xJf "$cache/$tarball" "mpich-$version/test/mpi" || die "could not extract $tarball"
fi

# ---- launcher wrapper -------------------------------------------------------
mkdir -p "$work"
wrapper=$work/impi-mpiexec
if [ "$suite_mpi" = openmpi ]; then
cat >"$wrapper.new" <<EOF
#!/usr/bin/env bash
# Generated by tests/conformance/mpich_suite.sh (IMPI_SUITE_MPI=openmpi): MPICH's
# runtests calls this as its mpiexec (-n N ./prog args); Open MPI's mpirun on
# loopback, with the same per-test limit as impi's runs; each run is logged.
t=\${MPIEXEC_TIMEOUT:-60}; t=\${t%%.*}
cap=\${IMPI_SUITE_MAX_TIMEOUT:-$max_timeout}
[ "\$t" -gt "\$cap" ] 2>/dev/null && t=\$cap
read -r -a extra <<<"\${IMPI_SUITE_LAUNCHER_ARGS:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
start=\$(date +%s)
timeout -k 10 \$t mpirun.openmpi --oversubscribe --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
  "\${extra[@]}" "\$@"
rc=\$?
echo "\$PWD|\$*|rc=\$rc|t=\$t|secs=\$((\$(date +%s) - start))|\${extra[*]}" >>'$work/launch.log'
exit \$rc
EOF
else
cat >"$wrapper.new" <<EOF
#!/usr/bin/env bash
# Generated by tests/conformance/mpich_suite.sh: MPICH's runtests calls this as
# its mpiexec (-n N ./prog args). Per-test limit from MPIEXEC_TIMEOUT (capped),
# extra launcher args from IMPI_SUITE_LAUNCHER_ARGS; each run is logged.
impirun='$build/bin/impirun'
t=\${MPIEXEC_TIMEOUT:-60}; t=\${t%%.*}
cap=\${IMPI_SUITE_MAX_TIMEOUT:-$max_timeout}
[ "\$t" -gt "\$cap" ] 2>/dev/null && t=\$cap
np=1
[ "\$1" = -n ] && np=\$2
read -r -a extra <<<"\${IMPI_SUITE_LAUNCHER_ARGS:-}"
for i in "\${!extra[@]}"; do   # --clients K with fewer than K processes
  if [ "\${extra[\$i]}" = --clients ] && [ "\${extra[\$((i+1))]:-0}" -gt "\$np" ] 2>/dev/null; then
    if [ "\$np" -gt 1 ]; then extra[\$((i+1))]=\$np; else unset "extra[\$i]" "extra[\$((i+1))]"; fi
  fi
done
start=\$(date +%s)
timeout -k 10 \$((t + 30)) "\$impirun" --timeout "\$t" "\${extra[@]}" "\$@"
rc=\$?
echo "\$PWD|\$*|rc=\$rc|t=\$t|secs=\$((\$(date +%s) - start))|\${extra[*]}" >>'$work/launch.log'
exit \$rc
EOF
fi
chmod +x "$wrapper.new"
mv "$wrapper.new" "$wrapper"

# ---- configure (once) -------------------------------------------------------
conf_args=(--disable-fortran --disable-cxx
  --disable-ft-tests --disable-checkpointing --disable-perftest --disable-dtpools
  --enable-strictmpi --enable-checkerrors --enable-threads=multiple
  "CC=$cc" "MPICC=$cc" "MPIEXEC=$wrapper")
if [ "$fortran" = 1 ]; then
  conf_args=("${conf_args[@]/--disable-fortran/--enable-fortran=all}")
  conf_args+=("F77=$f77" "FC=$fc" "MPIF77=$f77" "MPIFC=$fc")
  # Open MPI's wrappers do not add what gfortran >= 10 needs for mpif.h
  # programs (impi's and MPICH's do).
  [ "$suite_mpi" = openmpi ] &&
    conf_args+=("FFLAGS=-fallow-argument-mismatch" "FCFLAGS=-fallow-argument-mismatch")
fi
# Open MPI 4.1's mpi.h turns the MPI-1 names removed in MPI-3.0 into static
# assertions unless told otherwise; its libmpi still exports them, and the
# suite's own dtpools library uses MPI_Type_hvector.
[ "$suite_mpi" = openmpi ] && conf_args+=("CFLAGS=-DOMPI_OMIT_MPI1_COMPAT_DECLS=0")
stamp="${conf_args[*]}"
if [ "${IMPI_SUITE_RECONFIGURE:-0}" = 1 ] || [ ! -f "$work/config.status" ] ||
   [ "$(cat "$work/.impi-configure-args" 2>/dev/null)" != "$stamp" ]; then
  msg "configuring in $work (log: $work/configure.log)"
  (cd "$work" && "$src/configure" "${conf_args[@]}") >"$work/configure.log" 2>&1 ||
    die "configure failed; see $work/configure.log"
  echo "$stamp" >"$work/.impi-configure-args"
else
  msg "reusing the configured tree in $work"
fi

# MPICH's configure enables its f08 tests only inside an MPICH build tree
# (FROM_MPICH): their support library (util/libmtest_f08.la) is switched on by hand.
if [ "$fortran" = 1 ]; then
  sed -i 's/^#am__append_4 = libmtest_f08.la/am__append_4 = libmtest_f08.la/;
          s/^#am_libmtest_f08_la_OBJECTS = mtest_f08.lo/am_libmtest_f08_la_OBJECTS = mtest_f08.lo/' "$work/util/Makefile"
fi

# ---- build ------------------------------------------------------------------
msg "building util, dtpools and ${dirs[*]} (make -k -j2; log: $work/build.log)"
{
  make -C "$work/util" -j2 || exit 1
  make -C "$work/dtpools" -j2 || exit 1
  for d in "${dirs[@]}"; do make -C "$work/$d" -k -j2 || true; done
} >"$work/build.log" 2>&1 || die "the suite's support libraries did not build; see $work/build.log"

# ---- filtered testlists: take out tests that need MPI-4 names impi lacks ----
# A test whose build fails only for MPI-4 names (or MPIX_ names) is left out
# of the run; every other unbuildable test stays in and fails in runtests.
mpi4_re='^(MPIX_.*|MPI_Session.*|MPI_SESSION.*|MPI_Group_from_session_pset|MPI_Comm_create_from_group|MPI_Intercomm_create_from_groups|MPI_Psend_init|MPI_Precv_init|MPI_Pready.*|MPI_Parrived|MPI_Isendrecv(_replace)?|MPI_(Barrier|Bcast|Gatherv?|Scatterv?|Allgatherv?|Alltoall[vw]?|Reduce|Allreduce|Reduce_scatter(_block)?|Scan|Exscan|Neighbor_allgatherv?|Neighbor_alltoall[vw]?)_init|MPI_[A-Za-z_]+_c|MPI_Info_create_env|MPI_Info_get_string|MPI_Comm_idup_with_info|MPI_ERRORS_ABORT|MPI_COMM_TYPE_HW_.*|MPI_T_event_.*|MPI_T_source_.*|MPI_T_category_get_(num_)?events|MPI_T_CB_.*|MPI_T_SOURCE_.*|MPI_T_pvar_get_.*|MPI_Comm_get_info_c|QMPI_.*|MPI_[A-Z_]+_T)$'
leftout_file=$work/leftout.txt
: >"$leftout_file"
missing_names() {  # build output on stdin -> missing MPI identifiers, one per line
  perl -ne 'print "$1\n" while /(?:undefined reference to `|implicit declaration of function \x27|unknown type name \x27)(MPIX?_\w+)/g;
            print "$1\n" while /\x27(MPIX?_\w+)\x27 undeclared/g;
            # Fortran entry points (mpi_info_create_env_) as their MPI names (MPI_Info_create_env)
            while (/undefined reference to `(mpix?)_(\w+?)_\x27/g) { print uc($1) . "_" . ucfirst($2) . "\n"; }' | sort -u
}
make_filtered() {  # dir (relative to work): write testlist.impi there, recursively
  local rel=$1 list line prog name names all4
  list=$work/$rel/testlist
  [ -f "$list" ] || list=$src/$rel/testlist
  [ -f "$list" ] || return 0
  : >"$work/$rel/testlist.impi"
  while IFS= read -r line || [ -n "$line" ]; do
    prog=$(sed 's/#.*//' <<<"$line" | awk '{print $1}')
    if [ -n "$prog" ] && [ -d "$work/$rel/$prog" ]; then
      make_filtered "$rel/$prog"
    elif [ -n "$prog" ] && [[ $prog != !* ]] && [ ! -x "$work/$rel/$prog" ]; then
      name=${prog##*/}
      names=$(make -C "$work/$rel/$(dirname "$prog")" "$name" 2>&1 | missing_names | tr "\n" " " || true)
      all4=yes
      [ -n "$names" ] || all4=no
      for n in $names; do grep -Eq "$mpi4_re" <<<"$n" || all4=no; done
      if [ $all4 = yes ]; then
        echo "$rel/$prog|${names% }" >>"$leftout_file"
        continue
      fi
    fi
    echo "$line" >>"$work/$rel/testlist.impi"
  done <"$list"
}
for d in "${dirs[@]}"; do make_filtered "$d"; done

# ---- run --------------------------------------------------------------------
cd "$work"
export MPITEST_TIMEOUT=$timeout_s MPITEST_CLEANUP=0 IMPI_SUITE_MAX_TIMEOUT=$max_timeout
export IMPI_SUITE_LAUNCHER_ARGS="$launcher_args"
export USER=${USER:-$(id -un)}
rm -f summary.junit.xml summary.tap launch.log .stoptest
testdirs=$(IFS=,; echo "${dirs[*]}")
msg "running runtests on $testdirs (timeout ${timeout_s}s per test, launcher args: '${launcher_args}'; log: $work/runtests.log)"
started=$(date +%s)
lib_state() { [ "$suite_mpi" = openmpi ] || ls -lL --time-style=+%s "$build"/lib/libmpi.so* 2>/dev/null | md5sum; }
lib_before=$(lib_state)
set +e
setsid -w ./runtests -srcdir="$src" -tests=testlist.impi -testdirs="$testdirs" \
  -mpiexec="$wrapper" -junitfile=summary.junit.xml -tapfile=summary.tap \
  >runtests.log 2>&1 </dev/null &
rt_pid=$!
cleanup_strays() {  # end what this run left: processes whose binary or cwd is in $work
  local p exe cwd
  kill -- "-$rt_pid" 2>/dev/null
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = $$ ] && continue
    exe=$(readlink "/proc/$p/exe" 2>/dev/null) || continue
    cwd=$(readlink "/proc/$p/cwd" 2>/dev/null) || cwd=
    case "$exe|$cwd" in
      "$work"/*|*"|$work"/*) kill -9 "$p" 2>/dev/null ;;
    esac
  done
}
trap 'cleanup_strays; exit 130' INT TERM
wait "$rt_pid"
rt_rc=$?
trap - INT TERM
cd "$here"
cleanup_strays
set -e
elapsed=$(( $(date +%s) - started ))
lib_changed=no
[ "$(lib_state)" = "$lib_before" ] || lib_changed=yes
[ -s "$work/summary.junit.xml" ] || die "runtests wrote no results (rc $rt_rc); see $work/runtests.log"
printf 'dirs=(%s)\nelapsed=%q\ntimeout_s=%q\nlauncher_args=%q\nlib_changed=%q\n' "${dirs[*]}" "$elapsed" "$timeout_s" "$launcher_args" "$lib_changed" >"$work/last_run.env"
summarise
exit 0

