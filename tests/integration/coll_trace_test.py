#!/usr/bin/env python3
"""The collectives' global phases, message by message, against the spec.

Runs coll_trace.c across K clients with the host agents tracing every
message a proc starts toward another client (IMPI_AGENT_TRACE: source,
destination, tag, context, length), and compares, for every ordered pair
of procs, the sequence of messages with what the IMPI spec (chapter 4,
docs/impi-collectives.md) prescribes for Barrier (110), Bcast (120) and Reduce (190, commutative and
not), Allreduce (Reduce to 0 + Bcast from 0) and MPI_Finalize's barrier:
linear among masters, or the trees, as MAXLINEAR decides. The model below
is written from that document, independently of src/collectives.

Usage: coll_trace_test.py IMPIRUN COLL_TRACE CLIENTS NP MAXLINEAR
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

impirun, prog, k, np_, maxlinear = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
CTX = 1  # MPI_COMM_WORLD's collective context (cid 0 + 1)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def cubedim(n):
    d = 0
    while (1 << d) < n:
        d += 1
    return d


def hibit(v, d):
    for i in range(d - 1, -1, -1):
        if v & (1 << i):
            return i
    return -1


class Model:
    def __init__(self, client_of, maxlinear):
        self.client_of = client_of
        self.p = len(client_of)
        self.masters = []  # lowest rank of each client, in rank order
        for r, c in enumerate(client_of):
            if all(client_of[m] != c for m in self.masters):
                self.masters.append(r)
        self.n = len(self.masters)
        self.linear = self.n < maxlinear
        self.msgs = collections.defaultdict(list)  # (src, dst) -> [(tag, ctx, len)]

    def send(self, src, dst, tag, length):
        if self.client_of[src] != self.client_of[dst]:  # only global traffic is traced
            self.msgs[(src, dst)].append((tag, CTX, length))

    def lm(self, r):  # local master number of rank r
        return next(k for k, m in enumerate(self.masters) if self.client_of[m] == self.client_of[r])

    def barrier(self):
        n, d = self.n, cubedim(self.n)
        M = self.masters
        parent = {}
        for k in range(1, n):
            parent[k] = 0 if self.linear else k & ~(1 << hibit(k, d))
        # fan-in, then fan-out (the order between different pairs does not matter here)
        for k in range(1, n):
            self.send(M[k], M[parent[k]], 110, 0)
        for k in range(1, n):
            self.send(M[parent[k]], M[k], 110, 0)

    def node(self, v, root):
        r0 = self.lm(root)
        kk = (v + r0) % self.n
        return root if kk == r0 else self.masters[kk]

    def bcast(self, root, length):
        n, d = self.n, cubedim(self.n)
        for v in range(1, n):
            pv = 0 if self.linear else v & ~(1 << hibit(v, d))
            self.send(self.node(pv, root), self.node(v, root), 120, length)

    def reduce(self, root, length):
        n = self.n
        for v in range(1, n):
            if self.linear:
                pv = 0
            else:
                low = v & -v
                pv = v & ~low
            self.send(self.node(v, root), self.node(pv, root), 190, length)

    def reduce_noncommutative(self, root, length):
        for r in range(self.p):
            if r != root:
                self.send(r, root, 190, length)


def main():
    work = tempfile.mkdtemp(prefix="impi_coll_trace.")
    trace = os.path.join(work, "trace")
    env = dict(os.environ, IMPI_AGENT_TRACE=trace, IMPI_SHOW_JOB="1")
    cmd = [impirun, "-np", str(np_), "--clients", str(k), "--coll-maxlinear", str(maxlinear), prog]
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        fail("the job did not finish in 120 s")
    if out.returncode != 0:
        fail(f"the job exited {out.returncode}\n{out.stdout}\n{out.stderr}")
    for r in range(np_):
        if f"rank {r} of {np_} ok" not in out.stdout:
            fail(f"rank {r} did not report ok\n{out.stdout}\n{out.stderr}")
    client_of = {}
    for m in re.finditer(r"^impi-job\[0\] proc (\d+) client=(\d+) ", out.stdout, re.M):
        client_of[int(m.group(1))] = int(m.group(2))
    if sorted(client_of) != list(range(np_)):
        fail("no job layout in the output")
    layout = [client_of[r] for r in range(np_)]

    # MPI_LONG: 8 bytes in impi-wide, between impi clients that all list it
    # (docs/data-representation.md); else external32's 4 (MPI-3.1 table 13.2).
    wide = re.search(r"^impi-job\[0\] version=.* wide_clients=0x([0-9a-f]+)$", out.stdout, re.M)
    if not wide:
        fail("no job description (wide_clients) in the output")
    long_bytes = 8 if int(wide.group(1), 16) == (1 << (max(layout) + 1)) - 1 else 4

    model = Model(layout, maxlinear)
    model.barrier()
    for root in range(np_):
        model.bcast(root, 16)
        model.reduce(root, 2 * long_bytes)  # 2 MPI_LONG
    model.reduce(0, long_bytes)  # Allreduce = Reduce to 0 + Bcast from 0
    model.bcast(0, long_bytes)
    model.reduce_noncommutative(np_ - 1, 12)  # 3 MPI_INT
    model.barrier()  # MPI_Finalize

    seen = collections.defaultdict(list)
    with open(trace) as f:
        for line in f:
            src, dst, tag, ctx, length = map(int, line.split())
            if ctx != CTX:
                fail(f"a message on context {ctx} (only the world's collective context 1 is used here): {line.strip()}")
            seen[(src, dst)].append((tag, ctx, length))
    pairs = sorted(set(seen) | set(model.msgs))
    bad = 0
    for pr in pairs:
        if seen.get(pr, []) != model.msgs.get(pr, []):
            bad += 1
            print(f"pair {pr[0]} -> {pr[1]}: sent {seen.get(pr, [])}\n    the spec says {model.msgs.get(pr, [])}")
    total = sum(len(v) for v in model.msgs.values())
    mode = "linear" if model.linear else "tree"
    if bad:
        fail(f"{bad} of {len(pairs)} pairs differ ({k} clients, layout {layout}, {mode})")
    print(f"ok: {k} clients, layout {layout}, {model.n} masters, {mode}: {total} global messages as prescribed")


main()
