#!/usr/bin/env python3
"""The C and Fortran argument lists agree.

Reads, independently of the generator: the C table (src/api/mpi_functions.txt),
the `use mpi` interfaces (mpi_interfaces.h), mpi_f08's specific procedures
(mpi_f08_procs.f90), and the
C entry points (generated/wrappers.c, special.c); checks for every function
with a Fortran binding that
  - `use mpi` declares it with the C parameters in C's order, plus IERROR
    (MPI-3.1's Fortran lists; MPI_Init/MPI_Init_thread/MPI_Pcontrol and MPI-4's
    MPI_Info_create_env excepted),
  - mpi_f08 declares it with the same names (ierror optional),
  - its C entry point pmpi_x_ takes as many arguments as the Fortran routine,
    plus one hidden length per CHARACTER argument,
  - mpi_f08's specific procedure is MPI_x_f08ts when the routine has a choice
    buffer, MPI_x_f08 otherwise (MPI-4.1 19.1.5), PMPI_ likewise,
  - libmpifort.so exports mpi_x_ and pmpi_x_, and mpi_x_f08(ts)_ and
    pmpi_x_f08(ts)_ (when the library path is given).
Usage: check_signatures.py <source dir> <fortran include dir> [libmpifort.so]
"""
import pathlib
import re
import subprocess
import sys

src = pathlib.Path(sys.argv[1])
finc = pathlib.Path(sys.argv[2])
lib = sys.argv[3] if len(sys.argv) > 3 else None
FORTRAN_ONLY = {"MPI_Init": [], "MPI_Init_thread": ["required", "provided"], "MPI_Pcontrol": ["level"],
                "MPI_Info_create_env": ["info"]}
NO_BINDING = re.compile(r"^MPI_T_|_c2f$|_f2c$|_c2f08$|_f082c$|_c$")  # _c: large counts, C only (gen_fortran.py)
# Sessions: C only so far (tools/gen_fortran.py, docs/sessions.md).
NOT_YET = {"MPI_Session_init", "MPI_Session_finalize", "MPI_Session_get_num_psets",
           "MPI_Session_get_nth_pset", "MPI_Session_get_info", "MPI_Session_get_pset_info",
           "MPI_Group_from_session_pset", "MPI_Comm_create_from_group",
           "MPI_Intercomm_create_from_groups", "MPI_Session_create_errhandler",
           "MPI_Session_set_errhandler", "MPI_Session_get_errhandler",
           "MPI_Session_call_errhandler", "MPI_Session_attach_buffer",
           "MPI_Session_detach_buffer", "MPI_Session_flush_buffer", "MPI_Session_iflush_buffer"}


def c_table():
    out = {}
    for line in (src / "src/api/mpi_functions.txt").read_text().splitlines():
        m = re.match(r"^(.*?)\b(MPI_\w+)\s*\((.*)\)\s*$", line.strip())
        if not m or line.startswith("#"):
            continue
        params = [p for p in re.split(r",(?![^(]*\))", m.group(3)) if p.strip() not in ("", "void", "...")]
        out[m.group(2)] = (m.group(1).strip(), [re.search(r"(\w+)\s*(\[[^\]]*\])*\s*$", p).group(1) for p in params])
    return out


def fortran_interfaces(text):
    text = re.sub(r"&\s*\n\s*", "", text)
    out = {}
    for m in re.finditer(r"^\s*(?:SUBROUTINE|FUNCTION|subroutine|function)\s+(\w+)\s*\(([^)]*)\)(.*?)^\s*(?:END|end)",
                         text, re.M | re.S):
        args = [a.strip() for a in m.group(2).split(",") if a.strip()]
        chars = [a for a in args if re.search(rf"CHARACTER\(LEN=\*\)[^\n]*::\s*{a}\b", m.group(3), re.I)]
        out[m.group(1).lower()] = (args, chars, m.group(3))
    return out


def c_entry_points():
    out = {}
    for f in [src / "src/fortran/generated/wrappers.c", src / "src/fortran/special.c"]:
        text = re.sub(r"\s+", " ", f.read_text().replace("\\\n", " "))
        # argument lists spelled as macros (#define SPAWN_ARGS (...))
        for m in re.finditer(r"#define (\w+_ARGS) \((.*?)\) #define", text):
            text = text.replace(f" {m.group(1)} {{", f"({m.group(2)}) {{")
        for m in re.finditer(r"\b(?:void|double|MPI_Aint) (pmpi_\w+)_\(", text):
            depth, i = 1, m.end()
            while depth:  # to the matching parenthesis
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            if not text[i:].startswith(" {"):
                continue  # a declaration
            args = [a for a in re.split(r",(?![^(]*\))", text[m.end():i - 1]) if a.strip() not in ("", "void")]
            out[m.group(1)] = (len([a for a in args if "size_t" not in a]), len([a for a in args if "size_t" in a]))
        for m in re.finditer(r"PROTO\((?:void|double), (mpi_\w+), \((.*?)\)\) \{", text):
            args = [a for a in re.split(r",(?![^(]*\))", m.group(2)) if a.strip()]
            out["p" + m.group(1)] = (len([a for a in args if "size_t" not in a]), len([a for a in args if "size_t" in a]))
    return out


errors = []
table = c_table()
usempi = fortran_interfaces((finc / "mpi_interfaces.h").read_text())
f08_path = src / "src/fortran/generated/mpi_f08_procs.f90"
f08 = fortran_interfaces(f08_path.read_text()) if f08_path.exists() else None
entries = c_entry_points()
exported = None
if lib:
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True)
    exported = {line.split()[-1] for line in nm.stdout.splitlines()}
checked = 0
for name, (ret, cparams) in table.items():
    if NO_BINDING.search(name) or name in NOT_YET:
        continue
    checked += 1
    expect = FORTRAN_ONLY.get(name, cparams) + ([] if ret != "int" else ["ierror"])
    got = usempi.get(name.lower())
    if not got:
        errors.append(f"{name}: no `use mpi` interface")
        continue
    if got[0] != expect:
        errors.append(f"{name}: `use mpi` has ({', '.join(got[0])}), C has ({', '.join(expect)})")
    if f08 is not None:
        # The specific procedure names (MPI-4.1 19.1.5): _f08ts with a choice buffer.
        ts = any(re.search(r"TYPE\(\*\)", d) for d in [got[2]])
        specific = name.lower() + ("_f08ts" if ts else "_f08")
        g8 = f08.get(specific)
        if not g8:
            errors.append(f"{name}: no mpi_f08 procedure {specific}")
        elif g8[0] != expect:
            errors.append(f"{name}: mpi_f08 has ({', '.join(g8[0])}), C has ({', '.join(expect)})")
    e = entries.get("p" + name.lower())
    if not e:
        errors.append(f"{name}: no C entry point p{name.lower()}_")
    elif e != (len(expect), len(got[1])):
        errors.append(f"{name}: C entry point takes {e[0]} arguments + {e[1]} lengths, Fortran passes "
                      f"{len(expect)} + {len(got[1])}")
    if exported is not None:
        syms = [name.lower() + "_", "p" + name.lower() + "_"]
        if f08 is not None:  # mpi_f08's specific procedures: external, replaceable
            syms += [specific + "_", "p" + specific + "_"]
        for sym in syms:
            if sym not in exported:
                errors.append(f"{name}: libmpifort does not export {sym}")
for e in errors:
    print(e)
print(f"{checked} Fortran bindings checked, {len(errors)} problems")
sys.exit(1 if errors or checked < 300 else 0)
