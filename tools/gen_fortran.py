"""Fortran bindings generated from src/api/mpi_functions.txt (called by tools/gen_api.py).

One description of every parameter (classify) drives all outputs, so the C
wrappers and the Fortran interfaces cannot disagree:
  src/fortran/generated/wrappers.c      mpi_x_/pmpi_x_ (gfortran's names) for every
                                        function whose mapping is mechanical; the
                                        rest are in src/fortran/special.c
  src/fortran/generated/constants.inc   every MPI_ constant mpi.h defines, as
                                        IMPI_F_CONST(name) lines: a C program
                                        (src/fortran/constants.c) prints their
                                        values as Fortran at build time
  src/fortran/generated/mpif_commons.h  MPI_BOTTOM & co. (common blocks the C
                                        wrappers recognise) and the predefined
                                        callbacks; fixed and free form
  src/fortran/generated/mpi_interfaces.h explicit interfaces of `use mpi`
                                        (MPI_x and PMPI_x)
  src/fortran/generated/mpif_externals.h  mpif.h's declarations of functions
  src/fortran/generated/mpi_f08.f90     the mpi_f08 module (its procedures call
                                        the wrappers above; buffers go by the
                                        address src/fortran/f08.c takes from
                                        their descriptors)
  src/fortran/generated/signatures.txt  every Fortran binding's argument list
                                        (tests/fortran/check_signatures.py
                                        compares it with the C table and the
                                        generated sources)
"""
import re

# Functions with no Fortran binding (MPI-4.1 19.3: the conversions between C
# and Fortran handles and statuses are C only, except MPI_Status_f082f and
# MPI_Status_f2f08; the tool interface has no Fortran binding).
def has_fortran(fn):
    n = fn.name
    if n.startswith("MPI_T_") or n.endswith(("_c2f", "_f2c", "_c2f08", "_f082c")):
        return False
    # The MPI-4 large-count (MPI_Count) `_c` functions: C only for now (in
    # Fortran they are overloads of the int names, mpi_f08 only; docs/fortran.md).
    if n.endswith("_c"):
        return False
    return n not in NOT_YET_IN_FORTRAN


# MPI-4 sessions (src/api/session.cpp): C only so far (no MPI_Session handle
# type in the Fortran bindings yet).
NOT_YET_IN_FORTRAN = {"MPI_Session_init", "MPI_Session_finalize", "MPI_Session_get_num_psets",
                       "MPI_Session_get_nth_pset", "MPI_Session_get_info",
                       "MPI_Session_get_pset_info", "MPI_Group_from_session_pset",
                       "MPI_Comm_create_from_group", "MPI_Intercomm_create_from_groups",
                       "MPI_Session_create_errhandler", "MPI_Session_set_errhandler",
                       "MPI_Session_get_errhandler", "MPI_Session_call_errhandler",
                       "MPI_Session_attach_buffer", "MPI_Session_detach_buffer",
                       "MPI_Session_flush_buffer", "MPI_Session_iflush_buffer"}


# C wrappers written by hand in src/fortran/special.c (arrays of handles or
# statuses whose length is another argument, callbacks with Fortran calling
# conventions, attributes, argc/argv, varargs). Their interfaces are generated.
HAND_WRITTEN = {
    "MPI_Init", "MPI_Init_thread", "MPI_Pcontrol", "MPI_Grequest_start", "MPI_Info_create_env",
    "MPI_Comm_spawn", "MPI_Comm_spawn_multiple",
    "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Testall", "MPI_Testany", "MPI_Testsome",
    "MPI_Startall",
    "MPI_Alltoallw", "MPI_Ialltoallw", "MPI_Neighbor_alltoallw", "MPI_Ineighbor_alltoallw",
    "MPI_Alltoallw_init", "MPI_Neighbor_alltoallw_init",
    "MPI_Type_create_struct", "MPI_Type_get_contents",
    "MPI_Keyval_create", "MPI_Comm_create_keyval", "MPI_Type_create_keyval", "MPI_Win_create_keyval",
    "MPI_Attr_get", "MPI_Attr_put", "MPI_Comm_get_attr", "MPI_Comm_set_attr",
    "MPI_Type_get_attr", "MPI_Type_set_attr", "MPI_Win_get_attr", "MPI_Win_set_attr",
    "MPI_Register_datarep", "MPI_Request_get_status_all", "MPI_Request_get_status_any",
    "MPI_Request_get_status_some", "MPI_Info_get_string",
} | set()

# MPI-1 routines removed by MPI-3.0 whose Fortran addresses were default
# INTEGERs (MPI-1.3 Annex A; MPICH and Open MPI keep them so): their MPI_Aint
# parameters are INTEGER in Fortran and converted in special.c.
MPI1_INTEGER_ADDRESSES = {"MPI_Address", "MPI_Type_extent", "MPI_Type_hindexed", "MPI_Type_hvector",
                          "MPI_Type_lb", "MPI_Type_ub", "MPI_Type_struct"}
HAND_WRITTEN |= MPI1_INTEGER_ADDRESSES

# Fortran argument lists that differ from C's (besides the trailing IERROR).
FORTRAN_PARAMS = {
    "MPI_Init": [],
    "MPI_Init_thread": [("int", "required"), ("int *", "provided")],
    "MPI_Pcontrol": [("int", "level")],
    "MPI_Info_create_env": [("MPI_Info *", "info")],
}

HANDLES = ["MPI_Comm", "MPI_Group", "MPI_Datatype", "MPI_Op", "MPI_Errhandler", "MPI_Request",
           "MPI_Info", "MPI_Win", "MPI_File", "MPI_Message"]
SCALARS = {"MPI_Aint": "MPI_ADDRESS_KIND", "MPI_Offset": "MPI_OFFSET_KIND",
           "MPI_Count": "MPI_COUNT_KIND"}
BUFFERS = {"buf", "buffer", "compare_addr", "ibuf", "inbuf", "inoutbuf", "location", "origin_addr",
           "outbuf", "recvbuf", "result_addr", "sendbuf", "base"}
# int arguments that are LOGICAL in Fortran.
LOGICALS = {"flag", "reorder", "periods", "remain_dims", "high", "commute", "weighted"}
# Callbacks called with Fortran's conventions directly (handles are read as
# INTEGER: see special.c on the byte order); keyval callbacks go through
# trampolines in special.c.
CALLBACKS = {"MPI_User_function", "MPI_Comm_errhandler_function", "MPI_Handler_function", "MPI_Win_errhandler_function",
             "MPI_File_errhandler_function", "MPI_Comm_copy_attr_function",
             "MPI_Comm_delete_attr_function", "MPI_Type_copy_attr_function",
             "MPI_Type_delete_attr_function", "MPI_Win_copy_attr_function",
             "MPI_Win_delete_attr_function", "MPI_Copy_function", "MPI_Delete_function",
             "MPI_Grequest_query_function", "MPI_Grequest_free_function",
             "MPI_Grequest_cancel_function", "MPI_Datarep_conversion_function",
             "MPI_Datarep_extent_function"}


class P:
    """One parameter: its C declaration and what it is."""

    def __init__(self, fn, decl):
        d = decl.strip()
        m = re.match(r"^(.*?)(\w+)\s*((?:\[\s*\d*\s*\])*)$", d)
        self.ctype = re.sub(r"\s+", " ", m.group(1)).strip().replace(" *", "*").replace("* ", "*")
        self.name = m.group(2)
        self.dims = m.group(3).replace(" ", "")
        self.array = bool(self.dims)
        base = self.ctype.replace("const ", "").strip()
        self.const = self.ctype.startswith("const ")
        t = base.rstrip("*").strip()
        ptr = base.count("*")
        self.base = t
        n = self.name
        if fn in MPI1_INTEGER_ADDRESSES and n.startswith("array_of") and ptr == 1:
            self.array, ptr = True, 0  # `int *array_of_blocklengths`: an array
        if t in CALLBACKS and ptr == 1:
            self.kind = "callback"
        elif t == "void" and n in BUFFERS:
            self.kind = "buf"
        elif t == "void" and n == "baseptr":
            self.kind = "baseptr"
        elif t == "void" and n in ("attribute_val", "attr_val"):
            self.kind = "attr"
        elif t == "void" and n == "extra_state":
            self.kind = "extra"
        elif t == "char" and n in ("argv", "array_of_commands", "array_of_argv"):
            self.kind = "argv"  # CHARACTER arrays, blank-terminated (hand-written)
            self.dims = "(count, *)" if n == "array_of_argv" else "(*)"
        elif t == "char" and (ptr == 1 or (ptr == 0 and self.array)):
            self.kind = "str_in" if self.const else "str_out"
        elif t == "int" and n == "ranges":
            self.kind = "ranges"
        elif t == "int":
            self.kind = "int" if ptr == 0 and not self.array else "int_ptr"
        elif t in HANDLES:
            if self.array:
                self.kind = "handle_arr"
            else:
                self.kind = "handle_ptr" if ptr == 1 else "handle"
        elif t == "MPI_Status":
            if self.array or n == "array_of_statuses":
                self.array = True
                self.kind = "statuses"
            else:
                self.kind = "status_in" if self.const else "status"
        elif t == "MPI_Aint" and fn in MPI1_INTEGER_ADDRESSES:
            self.kind = "int_ptr" if ptr or self.array else "int"  # INTEGER (MPI-1)
        elif t == "MPI_F08_status":
            self.kind = "f08status"  # TYPE(MPI_Status), in `use mpi` too (MPI-4.1 19.3.5)
        elif t == "MPI_Fint" and n == "f_status":
            self.kind = "fstatus"
        elif t in SCALARS:
            self.kind = "scalar" if ptr == 0 and not self.array else "scalar_ptr"
        else:
            raise SystemExit(f"{fn}: no Fortran mapping for parameter '{decl}'")
        self.logical = n in LOGICALS

    # ---- Fortran declaration (use mpi / mpif.h; INTEGER handles)
    def f_decl(self, fname):
        n, k = self.name, self.kind
        if k == "buf":
            return [f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {n}", f"TYPE(*), DIMENSION(*) :: {n}"]
        if k in ("baseptr", "scalar", "scalar_ptr"):
            kind = SCALARS.get(self.base, "MPI_ADDRESS_KIND")
            dim = "(*)" if self.array else ""
            intent = ", INTENT(IN)" if k == "scalar" else ""
            return [f"INTEGER(KIND={kind}){intent} :: {n}{dim}"]
        if k in ("attr", "extra"):
            if fname in ("MPI_Attr_get", "MPI_Attr_put", "MPI_Keyval_create"):
                return [f"INTEGER :: {n}"]
            return [f"INTEGER(KIND=MPI_ADDRESS_KIND) :: {n}"]
        if k == "callback":
            return [f"EXTERNAL :: {n}"]
        if k in ("str_in", "str_out"):
            return [f"CHARACTER(LEN=*) :: {n}"]
        if k == "argv":
            return [f"CHARACTER(LEN=*) :: {n}{self.dims.upper()}"]
        if k == "ranges":
            return [f"INTEGER :: {n}(3, *)"]
        if k in ("status", "status_in", "fstatus"):
            return [f"INTEGER :: {n}(MPI_STATUS_SIZE)"]
        if k == "f08status":
            return [f"TYPE(MPI_Status) :: {n}"]
        if k == "statuses":
            return [f"INTEGER :: {n}(MPI_STATUS_SIZE, *)"]
        typ = "LOGICAL" if self.logical else "INTEGER"
        dim = "(*)" if self.array else ""
        intent = ", INTENT(IN)" if k in ("int", "handle") else ""
        return [f"{typ}{intent} :: {n}{dim}"]


def fparams(fn):
    if fn.name in FORTRAN_PARAMS:
        return [P(fn.name, f"{t} {n}") for t, n in FORTRAN_PARAMS[fn.name]]
    if fn.params in ("", "void"):
        return []
    from gen_api import split_params  # noqa: E402 (same directory)
    return [P(fn.name, p) for p in split_params(fn.params) if p.strip() != "..."]


def is_function(fn):
    return fn.ret != "int"


F_RESULT = {"double": "DOUBLE PRECISION", "MPI_Aint": "INTEGER(KIND=MPI_ADDRESS_KIND)"}
C_RESULT = {"double": "double", "MPI_Aint": "MPI_Aint"}


def lower(name):
    return name.lower()


# ---------------------------------------------------------------- C wrappers
def c_wrapper(fn):
    ps = fparams(fn)
    args, hidden, pre, call, post = [], [], [], [], []
    for p in ps:
        n, k = p.name, p.kind
        if k == "buf":
            args.append(f"{'const ' if p.const else ''}void *{n}")
            call.append(f"IMPI_F_BUF({n})")
        elif k == "baseptr":
            args.append(f"void *{n}")
            call.append(n)
        elif k == "int":
            args.append(f"const MPI_Fint *{n}")
            call.append(f"*{n}")
        elif k == "int_ptr":
            args.append(f"{'const ' if p.const else ''}MPI_Fint *{n}")
            # MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY / MPI_ERRCODES_IGNORE are common blocks.
            call.append(f"impi_f_ints({n})" if "weights" in n or "errcodes" in n else n)
        elif k == "ranges":
            args.append(f"MPI_Fint (*{n})[3]")
            call.append(n)
        elif k == "handle":
            args.append(f"const MPI_Fint *{n}")
            call.append(f"IMPI_F2C({p.base}, *{n})")
        elif k == "handle_ptr":
            args.append(f"MPI_Fint *{n}")
            pre.append(f"  {p.base} c_{n} = IMPI_F2C({p.base}, *{n});")
            call.append(f"&c_{n}")
            post.append(f"  *{n} = IMPI_C2F(c_{n});")
        elif k == "scalar":
            args.append(f"const {p.base} *{n}")
            call.append(f"*{n}")
        elif k == "scalar_ptr":
            args.append(f"{'const ' if p.const else ''}{p.base} *{n}")
            call.append(n)
        elif k in ("status", "status_in"):
            args.append(f"{'const ' if k == 'status_in' else ''}MPI_Fint *{n}")
            pre.append(f"  MPI_Status c_{n}, *p_{n} = IMPI_F_STATUS_IN({n}, &c_{n});")
            call.append(f"p_{n}")
            if k == "status":
                post.append(f"  IMPI_F_STATUS_OUT(p_{n}, {n});")
        elif k == "str_in":
            args.append(f"const char *{n}")
            hidden.append(f"size_t {n}_len")
            pre.append(f"  char *c_{n} = impi_f2c_string({n}, {n}_len);")
            call.append(f"c_{n}")
            post.append(f"  free(c_{n});")
        elif k == "str_out":
            args.append(f"char *{n}")
            hidden.append(f"size_t {n}_len")
            extra = "*valuelen" if any(q.name == "valuelen" for q in ps) else "0"
            pre.append(f"  char *c_{n} = impi_f_string_buffer({n}_len, {extra});")
            call.append(f"c_{n}")
            # Written back only when MPI wrote it (MPI_Info_get: not for a missing key).
            cond = "rc == MPI_SUCCESS" + (" && *flag" if any(q.name == "flag" for q in ps) else "")
            post.append(f"  impi_c2f_string_if({cond}, c_{n}, {n}, {n}_len);")
        elif k in ("fstatus", "f08status"):
            t = "MPI_Fint" if k == "fstatus" else "MPI_F08_status"
            args.append(f"{'const ' if p.const else ''}MPI_Fint *{n}")
            call.append(f"({'const ' if p.const else ''}{t} *){n}" if k == "f08status" else n)
        elif k == "callback":
            args.append(f"void (*{n})(void)")
            call.append(f"({p.base} *){n}")
        else:
            raise SystemExit(f"{fn.name}: {k} parameters need a hand-written wrapper")
    lname = lower(fn.name)
    if is_function(fn):
        ret = C_RESULT[fn.ret]
        sig = ", ".join(args) or "void"
        body = f"  return {fn.name}({', '.join(call)});\n"
        return ([f"IMPI_F_API {ret} p{lname}_({sig});", f"{ret} {lname}_({sig}) IMPI_F_ALIAS(p{lname}_);",
                 f"{ret} impi_fx_{lname}_({sig}) IMPI_F_ALIAS(p{lname}_);"],
                f"{ret} p{lname}_({sig}) {{\n{body}}}\n")
    sig = ", ".join(args + ["MPI_Fint *ierror"] + hidden)
    lines = pre + [f"  int rc = {fn.name}({', '.join(call)});"] + post + ["  *ierror = rc;"]
    return ([f"IMPI_F_API void p{lname}_({sig});", f"void {lname}_({sig}) IMPI_F_ALIAS(p{lname}_);",
             f"void impi_fx_{lname}_({sig}) IMPI_F_ALIAS(p{lname}_);"],
            f"void p{lname}_({sig}) {{\n" + "\n".join(lines) + "\n}\n")


def gen_wrappers(fns, banner):
    decls, defs = [], []
    for fn in fns:
        if not has_fortran(fn) or fn.name in HAND_WRITTEN:
            continue
        d, body = c_wrapper(fn)
        decls += d
        defs.append(body)
    out = [banner,
           "/* Fortran (mpif.h, use mpi) entry points: pmpi_x_ converts the arguments",
           " * and calls the C MPI_x; mpi_x_ is a weak alias (profiling interface);",
           " * impi_fx_mpi_x_ is the name mpi_f08's MPI_x and PMPI_x call. */",
           '#include "impi_fortran.h"', ""] + decls + [""] + defs
    return "\n".join(out)


# ---------------------------------------------------------------- constants
SKIP_CONSTANTS = {"MPI_BOTTOM", "MPI_IN_PLACE", "MPI_BUFFER_AUTOMATIC", "MPI_ARGV_NULL",
                  "MPI_ARGVS_NULL", "MPI_ERRCODES_IGNORE", "MPI_STATUS_IGNORE",
                  "MPI_STATUSES_IGNORE", "MPI_F_STATUS_IGNORE", "MPI_F_STATUSES_IGNORE",
                  "MPI_F_STATUS_SIZE", "MPI_F_SOURCE", "MPI_F_TAG", "MPI_F_ERROR",
                  "MPI_DISPLACEMENT_CURRENT", "MPI_F08_STATUS_IGNORE", "MPI_F08_STATUSES_IGNORE",
                  "MPI_CONVERSION_FN_NULL"}
SKIP_CONSTANTS |= {"MPI_SESSION_NULL"}  # (sessions are C only so far)


def header_constants(header):
    """[(name, handle type or None)] of mpi.h's MPI_ constants Fortran has."""
    out, types = [], {}
    for m in re.finditer(r"^#define (MPI_\w+) (.+)$", header, re.M):
        name, value = m.group(1), m.group(2).strip()
        if name in SKIP_CONSTANTS or name.startswith("MPI_T_") or name in types:
            continue
        if re.fullmatch(r"impi_\w+_fn", value):
            continue  # predefined callbacks: functions, see mpif_commons.h
        t = None
        h = re.search(r"\b(MPI_(?:" + "|".join(x[4:] for x in HANDLES) + r"))\b", value)
        if value.startswith("IMPI_DT_"):
            t = "MPI_Datatype"
        elif value.startswith("IMPI_OP_"):
            t = "MPI_Op"
        elif h and ("IMPI_HANDLE_" in value or value.startswith("((MPI_")):
            t = h.group(1)
        elif value in types:
            t = types[value]
        types[name] = t
        out.append((name, t))
    return out


def gen_constants(header, banner):
    out = [banner, "/* Every integer MPI_ constant of mpi.h (handles with their type);",
           " * constants.c prints their values. */"]
    for n, t in header_constants(header):
        out.append(f"IMPI_F_HANDLE({n}, {t})" if t else f"IMPI_F_CONST({n})")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- Fortran text
COMMONS = [
    # (Fortran declaration, common block) -- the C symbols are in special.c.
    ("INTEGER MPI_BOTTOM", "MPI_FORTRAN_BOTTOM", "MPI_BOTTOM"),
    ("INTEGER MPI_IN_PLACE", "MPI_FORTRAN_IN_PLACE", "MPI_IN_PLACE"),
    ("INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)", "MPI_FORTRAN_ST_IGN", "MPI_STATUS_IGNORE"),
    ("INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)", "MPI_FORTRAN_STS_IGN",
     "MPI_STATUSES_IGNORE"),
    ("INTEGER MPI_ERRCODES_IGNORE(1)", "MPI_FORTRAN_ERRCODES_IGN", "MPI_ERRCODES_IGNORE"),
    ("CHARACTER*1 MPI_ARGV_NULL(1)", "MPI_FORTRAN_ARGV_NULL", "MPI_ARGV_NULL"),
    ("CHARACTER*1 MPI_ARGVS_NULL(1,1)", "MPI_FORTRAN_ARGVS_NULL", "MPI_ARGVS_NULL"),
    ("INTEGER MPI_UNWEIGHTED(1)", "MPI_FORTRAN_UNWEIGHTED", "MPI_UNWEIGHTED"),
    ("INTEGER MPI_WEIGHTS_EMPTY(1)", "MPI_FORTRAN_WEIGHTS_EMPTY", "MPI_WEIGHTS_EMPTY"),
]
PREDEFINED_CALLBACKS = ["MPI_COMM_NULL_COPY_FN", "MPI_COMM_NULL_DELETE_FN", "MPI_COMM_DUP_FN",
                        "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_NULL_DELETE_FN", "MPI_TYPE_DUP_FN",
                        "MPI_WIN_NULL_COPY_FN", "MPI_WIN_NULL_DELETE_FN", "MPI_WIN_DUP_FN",
                        "MPI_NULL_COPY_FN", "MPI_NULL_DELETE_FN", "MPI_DUP_FN",
                        "MPI_CONVERSION_FN_NULL"]


def fixed(line):
    """A line valid in fixed and free form: columns 7..72, '!' comments."""
    if line.startswith("!"):
        return line
    s = "      " + line
    assert len(s) <= 72, s
    return s


def gen_commons(banner):
    out = ["! " + banner.strip("/* \n").rstrip(" */"),
           "! MPI_BOTTOM and the other special addresses: common blocks whose",
           "! addresses the C wrappers recognise (src/fortran/special.c)."]
    for decl, block, _ in COMMONS:
        out.append(fixed(decl))
        out.append(fixed(f"COMMON /{block}/ {decl.split()[1].split('(')[0]}"))
        out.append(fixed(f"SAVE /{block}/"))
    out.append("! Predefined attribute callbacks.")
    for cb in PREDEFINED_CALLBACKS:
        out.append(fixed(f"EXTERNAL {cb}"))
    out.append(fixed("LOGICAL MPI_SUBARRAYS_SUPPORTED"))
    out.append(fixed("PARAMETER (MPI_SUBARRAYS_SUPPORTED=.FALSE.)"))
    out.append(fixed("LOGICAL MPI_ASYNC_PROTECTS_NONBLOCKING"))
    out.append(fixed("PARAMETER (MPI_ASYNC_PROTECTS_NONBLOCKING=.FALSE.)"))
    return "\n".join(out) + "\n"


def gen_externals(fns, banner):
    out = ["! " + banner.strip("/* \n").rstrip(" */"),
           "! mpif.h: the types of the MPI functions (subroutines need none).",
           fixed("EXTERNAL MPI_F_SYNC_REG")]
    # Only MPI_WTIME and MPI_WTICK, as MPICH and Open MPI: programs declare
    # MPI_AINT_ADD/MPI_AINT_DIFF themselves (MPICH's f77/rma/aintf does).
    for fn in fns:
        if has_fortran(fn) and is_function(fn) and fn.ret == "double":
            out.append(fixed(f"{F_RESULT[fn.ret]} {fn.name.upper()}"))
            out.append(fixed(f"EXTERNAL {fn.name.upper()}"))
            out.append(fixed(f"{F_RESULT[fn.ret]} P{fn.name.upper()}"))
            out.append(fixed(f"EXTERNAL P{fn.name.upper()}"))
    return "\n".join(out) + "\n"


def interface(fn, prefix=""):
    ps = fparams(fn)
    name = prefix + fn.name
    names = [p.name for p in ps]
    if is_function(fn):
        head = f"FUNCTION {name}({', '.join(names)})"
        end = f"END FUNCTION {name}"
    else:
        names.append("ierror")
        head = f"SUBROUTINE {name}({', '.join(names)})"
        end = f"END SUBROUTINE {name}"
    body = ["IMPORT"]
    for p in ps:
        body += p.f_decl(fn.name)
    if is_function(fn):
        body.append(f"{F_RESULT[fn.ret]} :: {name}")
    else:
        body.append("INTEGER :: ierror")
    return [wrap(head)] + ["  " + b for b in body] + [end]


def wrap(line, indent="  "):
    """Free-form continuation for long lines."""
    out, cur = [], line
    while len(cur) > 100:
        i = cur.rfind(", ", 0, 98)
        out.append(cur[:i + 1] + " &")
        cur = indent + "  " + cur[i + 2:]
    out.append(cur)
    return "\n".join(out)


def gen_interfaces(fns, banner):
    out = ["! " + banner.strip("/* \n").rstrip(" */"),
           "! Explicit interfaces of the `use mpi` module (included by mpi.f90)."]
    for fn in fns:
        if not has_fortran(fn):
            continue
        for prefix in ("", "P"):
            out.append("INTERFACE")
            out += ["  " + line for line in "\n".join(interface(fn, prefix)).split("\n")]
            out.append("END INTERFACE")
    return "\n".join(out) + "\n"


def gen_signatures(fns):
    out = ["# Generated by tools/gen_api.py: every Fortran binding's arguments, as",
           "# name: C parameter names -> Fortran argument names (+ ierror)."]
    for fn in fns:
        if not has_fortran(fn):
            continue
        f = [p.name for p in fparams(fn)] + ([] if is_function(fn) else ["ierror"])
        out.append(f"{fn.name}: {' '.join(f)}")
    return "\n".join(out) + "\n"


def generate(root, fns):
    banner = "/* Generated by tools/gen_api.py from src/api/mpi_functions.txt; do not edit. */"
    gen = root / "src/fortran/generated"
    header = (root / "include/mpi/mpi.h").read_text()
    out = {
        gen / "wrappers.c": gen_wrappers(fns, banner),
        gen / "constants.inc": gen_constants(header, banner),
        gen / "mpif_commons.h": gen_commons(banner),
        gen / "mpif_externals.h": gen_externals(fns, banner),
        gen / "mpi_interfaces.h": gen_interfaces(fns, banner),
        gen / "signatures.txt": gen_signatures(fns),
    }
    out[gen / "mpi_f08.f90"] = gen_f08(fns, header, banner)
    out[gen / "mpi_f08_procs.f90"] = gen_f08_procs(fns, banner)
    return out


# ---------------------------------------------------------------- mpi_f08
def f08_decl(p, fname):
    n, k = p.name, p.kind
    intent = ", intent(in)" if p.const else ""
    dim = "(3, *)" if k == "ranges" else "(*)" if p.array else ""
    if k == "buf":
        return f"type(*), dimension(..){intent}{', asynchronous' if fname[4] == 'I' else ''} :: {n}"
    if k == "baseptr":
        return f"type(c_ptr) :: {n}"
    if k in ("scalar", "scalar_ptr"):
        return f"integer(kind={SCALARS[p.base]}){', intent(in)' if k == 'scalar' else intent} :: {n}{dim}"
    if k in ("attr", "extra"):
        kind = "" if fname in ("MPI_Attr_get", "MPI_Attr_put", "MPI_Keyval_create") else "(kind=MPI_ADDRESS_KIND)"
        return f"integer{kind} :: {n}"
    if k == "callback":
        if p.base in F08_CALLBACKS:
            return f"procedure({p.base}) :: {n}"
        return f"external :: {n}"
    if k in ("str_in", "str_out"):
        return f"character(len=*){', intent(in)' if k == 'str_in' else ''} :: {n}"
    if k == "argv":
        return f"character(len=*), intent(in) :: {n}{p.dims}"
    if k in ("status", "status_in", "statuses"):
        return f"type(MPI_Status){intent if k != 'status_in' else ', intent(in)'} :: {n}{dim}"
    if k == "f08status":
        return f"type(MPI_Status), intent({'in' if p.const else 'out'}) :: {n}"
    if k == "fstatus":
        return f"integer, intent({'in' if p.const else 'out'}) :: {n}(MPI_STATUS_SIZE)"
    if k in ("handle", "handle_ptr", "handle_arr"):
        return f"type({p.base}){', intent(in)' if k == 'handle' else intent} :: {n}{dim}"
    typ = "logical" if p.logical else "integer"
    return f"{typ}{', intent(in)' if k == 'int' else intent} :: {n}{dim}"


def f08_buffer_mode(fname):
    """How mpi_f08 passes a non-contiguous section (f08.c): 1 through a
    contiguous copy (the routine is done with the buffer when it returns),
    2 as the address of its first element (MPI_Get_address), 0 refused."""
    if fname == "MPI_Get_address":
        return 2
    keeps = (fname.startswith(("MPI_I", "MPI_File_i", "MPI_Win_", "MPI_Buffer_"))
             or fname.endswith(("_init", "_begin", "_end"))
             or fname in ("MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate",
                          "MPI_Fetch_and_op", "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget",
                          "MPI_Raccumulate", "MPI_Rget_accumulate"))
    return 0 if keeps else 1


# mpi_f08's abstract interfaces of the callbacks (MPI-3.1 A.3); the C library
# calls them with the same conventions as the mpif.h ones (see special.c).
F08_CALLBACKS = {
    "MPI_User_function": ("invec, inoutvec, len, datatype",
                          ["type(c_ptr), value :: invec, inoutvec", "integer :: len",
                           "type(MPI_Datatype) :: datatype"]),
}
for _h, _t in (("MPI_Comm", "comm"), ("MPI_Datatype", "type"), ("MPI_Win", "win")):
    _o = "old" + _t if _t != "type" else "oldtype"
    _cap = _h[4:] if _t != "type" else "Type"
    F08_CALLBACKS[f"MPI_{_cap}_copy_attr_function"] = (
        f"{_o}, {_t}_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror",
        [f"type({_h}) :: {_o}", f"integer :: {_t}_keyval, ierror",
         "integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out",
         "logical :: flag"])
    _d = _t if _t != "type" else "datatype"
    F08_CALLBACKS[f"MPI_{_cap}_delete_attr_function"] = (
        f"{_d}, {_t}_keyval, attribute_val, extra_state, ierror",
        [f"type({_h}) :: {_d}", f"integer :: {_t}_keyval, ierror",
         "integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state"])
for _h, _t in (("MPI_Comm", "comm"), ("MPI_Win", "win"), ("MPI_File", "file")):
    F08_CALLBACKS[f"{_h}_errhandler_function"] = (
        f"{_t}, error_code", [f"type({_h}) :: {_t}", "integer :: error_code"])
# MPI-IO's data representation callbacks: the buffers are C pointers by
# value, which is how mpif.h's conversion function receives its arrays.
F08_CALLBACKS["MPI_Datarep_conversion_function"] = (
    "userbuf, datatype, count, filebuf, position, extra_state, ierror",
    ["type(c_ptr), value :: userbuf, filebuf", "type(MPI_Datatype) :: datatype",
     "integer :: count, ierror", "integer(kind=MPI_OFFSET_KIND) :: position",
     "integer(kind=MPI_ADDRESS_KIND) :: extra_state"])
F08_CALLBACKS["MPI_Datarep_extent_function"] = (
    "datatype, extent, extra_state, ierror",
    ["type(MPI_Datatype) :: datatype", "integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state",
     "integer :: ierror"])
# MPI-1's name of the communicator error handler (MPI_Errhandler_create).
F08_CALLBACKS["MPI_Handler_function"] = F08_CALLBACKS["MPI_Comm_errhandler_function"]
PREDEFINED_F08 = {"MPI_COMM_NULL_COPY_FN": "MPI_Comm_copy_attr_function",
                  "MPI_COMM_DUP_FN": "MPI_Comm_copy_attr_function",
                  "MPI_COMM_NULL_DELETE_FN": "MPI_Comm_delete_attr_function",
                  "MPI_TYPE_NULL_COPY_FN": "MPI_Type_copy_attr_function",
                  "MPI_TYPE_DUP_FN": "MPI_Type_copy_attr_function",
                  "MPI_TYPE_NULL_DELETE_FN": "MPI_Type_delete_attr_function",
                  "MPI_WIN_NULL_COPY_FN": "MPI_Win_copy_attr_function",
                  "MPI_WIN_DUP_FN": "MPI_Win_copy_attr_function",
                  "MPI_WIN_NULL_DELETE_FN": "MPI_Win_delete_attr_function",
                  "MPI_CONVERSION_FN_NULL": "MPI_Datarep_conversion_function"}


def f08_abstract_interfaces():
    out = ["  abstract interface"]
    for name, (args, decls) in F08_CALLBACKS.items():
        out += [wrap(f"    subroutine {name}({args})", "    "), "      import"]
        out += ["      " + d for d in decls] + [f"    end subroutine {name}"]
    out.append("  end interface")
    for cb in PREDEFINED_CALLBACKS:
        out.append(f"  procedure({PREDEFINED_F08[cb]}) :: {cb}" if cb in PREDEFINED_F08
                   else f"  external :: {cb}")
    return out


def f08_actual(p, fname=""):
    if p.kind == "buf":
        return f"%val(impi_f08_buf({p.name}, impi_t_{p.name}, {f08_buffer_mode(fname)}))"
    if p.kind == "handle":
        return f"{p.name}%MPI_VAL"
    return p.name


def f08_specific(fn, prefix=""):
    """The specific procedure name (MPI-4.1 19.1.5, Table 19.1): MPI_Send_f08ts
    for a routine with a TYPE(*), DIMENSION(..) choice buffer, MPI_Comm_rank_f08
    for the others; PMPI_ ones for the profiling interface."""
    ts = any(p.kind == "buf" for p in fparams(fn))
    return prefix + fn.name + ("_f08ts" if ts else "_f08")


def f08_procedure(fn, prefix="", body=True):
    """The external procedure (body) or its interface (not body)."""
    ps = fparams(fn)
    lname = fn.name.lower()
    name = f08_specific(fn, prefix)
    names = [p.name for p in ps]
    decls = [f08_decl(p, fn.name) for p in ps]
    actual = ", ".join(f08_actual(p, fn.name) for p in ps)
    bufs = [p for p in ps if p.kind == "buf"]
    temps = [f"integer(c_intptr_t) :: impi_t_{p.name}" for p in bufs]
    done = [f"call impi_f08_buf_done({p.name}, impi_t_{p.name}, {0 if p.const else 1})"
            for p in bufs if f08_buffer_mode(fn.name) == 1]
    head = ["use mpi_f08_types", "implicit none"] if body else ["import", "implicit none"]
    if is_function(fn):
        rtype = F_RESULT[fn.ret].lower()
        code = [f"{rtype}, external :: impi_fx_{lname}"] + temps + [
                f"{name} = impi_fx_{lname}({actual})"] + done
        return ([wrap(f"function {name}({', '.join(names)})")] + ["  " + h for h in head] +
                ["  " + d for d in decls] + [f"  {rtype} :: {name}"] +
                (["  " + wrap(b, "  ") for b in code] if body else []) + [f"end function {name}"])
    code = ["integer :: ierror_c"] + temps + [f"external :: impi_fx_{lname}",
            f"call impi_fx_{lname}({actual}{', ' if actual else ''}ierror_c)"] + done + [
            "if (present(ierror)) ierror = ierror_c"]
    return ([wrap(f"subroutine {name}({', '.join(names + ['ierror'])})")] + ["  " + h for h in head] +
            ["  " + d for d in decls] + ["  integer, optional, intent(out) :: ierror"] +
            (["  " + wrap(b, "  ") for b in code] if body else []) + [f"end subroutine {name}"])


def gen_f08(fns, header, banner):
    """mpi_f08.f90: the modules mpi_f08_types (types, constants, callbacks'
    interfaces) and mpi_f08 (a generic interface per routine, whose specific
    procedure is MPI_x_f08ts or MPI_x_f08 and PMPI_ likewise: external
    procedures, in mpi_f08_procs.f90, that a tool can replace)."""
    out = ["! " + banner.strip("/* \n").rstrip(" */"),
           "! The mpi_f08 module: handles as TYPE(MPI_Comm) & co. (one INTEGER, MPI_VAL,",
           "! the value mpif.h uses), TYPE(MPI_Status) with the layout of an mpif.h",
           "! status, TYPE(*), DIMENSION(..) buffers, optional ierror. Each routine is a",
           "! generic name whose specific procedure (MPI_Send_f08ts, MPI_Comm_rank_f08,",
           "! MPI-4.1 19.1.5) is an external procedure (mpi_f08_procs.f90) calling the",
           "! mpif.h entry point (src/fortran/generated/wrappers.c, special.c); buffers",
           "! go as their address (impi_f08_buf, f08.c).",
           "module mpi_f08_types",
           "  use, intrinsic :: iso_c_binding, only: c_ptr, c_int, c_intptr_t",
           "  implicit none",
           "  private :: c_int"]
    for h in HANDLES:
        out += [f"  type, bind(C) :: {h}", "    integer(c_int) :: MPI_VAL", f"  end type {h}"]
    out += ["  type, bind(C) :: MPI_Status",
            "    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR",
            "    integer(c_int) :: impi_cancelled, impi_count_lo, impi_count_hi  ! impi's",
            "  end type MPI_Status"]
    out.append("  include 'mpif_constants_f08.h'")
    out += ["  ! MPI_BOTTOM & co.: the common blocks of mpif.h (src/fortran/special.c)."]
    f08_commons = {"MPI_STATUS_IGNORE": "type(MPI_Status) :: MPI_STATUS_IGNORE",
                   "MPI_STATUSES_IGNORE": "type(MPI_Status) :: MPI_STATUSES_IGNORE(1)"}
    for decl, block, name in COMMONS:
        out.append("  " + f08_commons.get(name, decl.replace("CHARACTER*1", "character(len=1)").lower()
                                          .replace(name.lower(), name)))
        out.append(f"  common /{block}/ {name}")
        out.append(f"  save /{block}/")
    out += f08_abstract_interfaces()
    out += ["  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .false.",
            "  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false."]
    out += ["  interface  ! src/fortran/f08.c (for mpi_f08_procs.f90; mpi_f08 hides them)",
            "    function impi_f08_buf(buf, tmp, mode) bind(C, name='impi_f08_buf') result(a)",
            "      import :: c_int, c_intptr_t", "      type(*), dimension(..), intent(in) :: buf",
            "      integer(c_intptr_t) :: tmp", "      integer(c_int), value :: mode",
            "      integer(c_intptr_t) :: a", "    end function impi_f08_buf",
            "    subroutine impi_f08_buf_done(buf, tmp, copy_back) bind(C, name='impi_f08_buf_done')",
            "      import :: c_int, c_intptr_t", "      type(*), dimension(..) :: buf",
            "      integer(c_intptr_t) :: tmp", "      integer(c_int), value :: copy_back",
            "    end subroutine impi_f08_buf_done", "  end interface"]
    for op, name in (("==", "eq"), ("/=", "ne")):
        out.append(f"  interface operator({op})")
        out.append(wrap("    module procedure " + ", ".join(f"impi_{h[4:].lower()}_{name}" for h in HANDLES), "    "))
        out.append("  end interface")
    out.append("contains")
    for h in HANDLES:
        for op, name in (("==", "eq"), ("/=", "ne")):
            f = f"impi_{h[4:].lower()}_{name}"
            out += [f"  elemental logical function {f}(a, b)", f"    type({h}), intent(in) :: a, b",
                    f"    {f} = a%MPI_VAL {op} b%MPI_VAL", f"  end function {f}"]
    out.append("end module mpi_f08_types")
    out += ["", "module mpi_f08", "  use mpi_f08_types", "  implicit none",
            "  private :: impi_f08_buf, impi_f08_buf_done, c_intptr_t"]
    for fn in fns:
        if has_fortran(fn):
            for prefix in ("", "P"):  # PMPI_: the profiling interface
                out.append(f"  interface {prefix}{fn.name}")
                out += ["    " + line for line in "\n".join(f08_procedure(fn, prefix, False)).split("\n")]
                out.append(f"  end interface {prefix}{fn.name}")
    out.append("  include 'mpi_sizeof_interface.inc'  ! src/fortran, hand-written")
    out.append("contains")
    out.append("  include 'mpi_sizeof_procs.inc'")
    out.append("end module mpi_f08")
    return "\n".join(out) + "\n"


def gen_f08_procs(fns, banner):
    out = ["! " + banner.strip("/* \n").rstrip(" */"),
           "! mpi_f08's specific procedures (MPI_Send_f08ts, PMPI_Send_f08ts, ...): external",
           "! procedures, so that a tool can replace one (MPI-4.1 19.1.5); the generic",
           "! names of mpi_f08.f90 resolve to them."]
    for fn in fns:
        if has_fortran(fn):
            for prefix in ("", "P"):
                out += f08_procedure(fn, prefix, True)
    return "\n".join(out) + "\n"
