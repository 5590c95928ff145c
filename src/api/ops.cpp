// ops.cpp - reduction operators: MPI_Op_create/free/commutative, MPI_Reduce_local.
#include "api/ops.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <mutex>
#include <vector>

#include "api/datatypes.hpp"
#include "api/errors.hpp"
#include "api/handles.hpp"

namespace impi::api {

namespace {
constexpr std::uint32_t kFirstUserOp = 32;
struct UserOp {
  MPI_User_function *fn = nullptr;
  MPI_User_function_c *fn_c = nullptr;  // MPI_Op_create_c
  bool commutative = true;
};
std::mutex g_mu;
std::vector<UserOp> g_ops;  // index - kFirstUserOp; fn == nullptr: free
}  // namespace

std::optional<OpRef> lookup_op(MPI_Op op) {
  if (handle_kind(op) != IMPI_KIND_OP) return std::nullopt;
  std::uint32_t i = handle_index(op);
  if (i >= 1 && i < static_cast<std::uint32_t>(pack::kNumOps))
    return OpRef{static_cast<pack::Op>(i), nullptr, nullptr, true};
  std::lock_guard<std::mutex> lk(g_mu);
  if (i < kFirstUserOp || i - kFirstUserOp >= g_ops.size() ||
      (!g_ops[i - kFirstUserOp].fn && !g_ops[i - kFirstUserOp].fn_c))
    return std::nullopt;
  const UserOp &u = g_ops[i - kFirstUserOp];
  return OpRef{std::nullopt, u.fn, u.fn_c, u.commutative};
}

int apply_op(const OpRef &op, MPI_Datatype datatype, const pack::TypePtr &type, MPI_Count count,
             const void *in, void *inout, const char *fn, MPI_Comm comm) {
  if (op.user_c) {
    MPI_Count n = count;
    MPI_Datatype d = datatype;
    op.user_c(const_cast<void *>(in), inout, &n, &d);
    return MPI_SUCCESS;
  }
  if (op.user) {
    // The int function sees at most INT_MAX items a call (MPI-4.0 6.9.5).
    const auto *src = static_cast<const std::byte *>(in);
    auto *dst = static_cast<std::byte *>(inout);
    MPI_Count done = 0;
    do {
      int n = static_cast<int>(std::min<MPI_Count>(count - done, INT_MAX));
      MPI_Datatype d = datatype;
      const std::int64_t off = done * type->extent();
      op.user(const_cast<std::byte *>(src + off), dst + off, &n, &d);
      done += n;
    } while (done < count);
    return MPI_SUCCESS;
  }
  if (auto s = pack::check_op(*op.predefined, type); !s.ok())
    return report(comm, MPI_ERR_OP, fn, s.message());
  pack::reduce(*op.predefined, type, count, in, inout);
  return MPI_SUCCESS;
}

}  // namespace impi::api

using impi::api::report;

extern "C" {

static int op_create(const char *fn, MPI_User_function *user_fn, MPI_User_function_c *user_fn_c,
                     int commute, MPI_Op *op) {
  using namespace impi::api;
  if ((!user_fn && !user_fn_c) || !op)
    return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  std::lock_guard<std::mutex> lk(g_mu);
  std::uint32_t i = 0;
  while (i < g_ops.size() && (g_ops[i].fn || g_ops[i].fn_c)) ++i;
  if (i == g_ops.size()) g_ops.emplace_back();
  g_ops[i] = {user_fn, user_fn_c, commute != 0};
  *op = make_handle<MPI_Op>(IMPI_KIND_OP, kFirstUserOp + i);
  return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op) {
  return op_create("MPI_Op_create", user_fn, nullptr, commute, op);
}

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op) {
  return op_create("MPI_Op_create_c", nullptr, user_fn, commute, op);
}

int PMPI_Op_free(MPI_Op *op) {
  using namespace impi::api;
  const char *fn = "MPI_Op_free";
  if (!op) return report(MPI_COMM_NULL, MPI_ERR_ARG, fn, "NULL argument");
  auto r = lookup_op(*op);
  if (!r) return report(MPI_COMM_NULL, MPI_ERR_OP, fn, "not a valid operator");
  if (r->predefined)
    return report(MPI_COMM_NULL, MPI_ERR_OP, fn, "predefined operators cannot be freed");
  {
    std::lock_guard<std::mutex> lk(g_mu);
    g_ops[handle_index(*op) - kFirstUserOp] = {};
  }
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

int PMPI_Op_commutative(MPI_Op op, int *commute) {
  auto r = impi::api::lookup_op(op);
  if (!r) return report(MPI_COMM_NULL, MPI_ERR_OP, "MPI_Op_commutative", "not a valid operator");
  if (!commute) return report(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Op_commutative", "NULL argument");
  *commute = r->commutative;
  return MPI_SUCCESS;
}

static int reduce_local(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op) {
  auto o = impi::api::lookup_op(op);
  if (!o) return report(MPI_COMM_NULL, MPI_ERR_OP, fn, "not a valid operator");
  auto t = impi::api::lookup_type(datatype);
  if (!t) return report(MPI_COMM_NULL, MPI_ERR_TYPE, fn, "not a valid datatype");
  if (count < 0) return report(MPI_COMM_NULL, MPI_ERR_COUNT, fn, "negative count");
  if (count > 0 && (!inbuf || !inoutbuf))
    return report(MPI_COMM_NULL, MPI_ERR_BUFFER, fn, "NULL buffer");
  return impi::api::apply_op(*o, datatype, t->type, count, inbuf, inoutbuf, fn, MPI_COMM_NULL);
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op) {
  return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op) {
  return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}

}  // extern "C"

#include "api/generated/ops_aliases.inc"
