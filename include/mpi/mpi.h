/*
 * mpi.h - the public C interface of impi (MPI-3.1 C bindings).
 *
 * Plain C (C89 with `long long`, C99, C11) and C++. Handles are opaque:
 * each handle type is a distinct pointer type so the compiler catches a
 * communicator passed where a datatype belongs; their values are encoded
 * object ids, never addresses a program may dereference.
 *
 * Every MPI_ function has a PMPI_ twin (the profiling interface): the MPI_
 * names are weak aliases of the PMPI_ ones.
 *
 * Functions not implemented yet are declared here, return
 * MPI_ERR_UNSUPPORTED_OPERATION through the error handler, and are listed
 * in the README.
 */
#ifndef IMPI_MPI_H
#define IMPI_MPI_H

#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Symbols of libmpi that programs may use. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define IMPI_API __attribute__((visibility("default")))
#else
#define IMPI_API
#endif

/* ------------------------------------------------------------ version */
#define MPI_VERSION 4
#define MPI_SUBVERSION 1
#define IMPI_VERSION_MAJOR 0
#define IMPI_VERSION_MINOR 1
#define IMPI_VERSION_PATCH 0
#define IMPI 1 /* lets programs detect this implementation */

/* ------------------------------------------------------------ scalar types */
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

/* ------------------------------------------------------------ handle types */
typedef struct impi_comm_ *MPI_Comm;
typedef struct impi_group_ *MPI_Group;
typedef struct impi_datatype_ *MPI_Datatype;
typedef struct impi_op_ *MPI_Op;
typedef struct impi_errhandler_ *MPI_Errhandler;
typedef struct impi_request_ *MPI_Request;
typedef struct impi_info_ *MPI_Info;
typedef struct impi_win_ *MPI_Win;
typedef struct impi_file_ *MPI_File;
typedef struct impi_message_ *MPI_Message;
typedef struct impi_session_ *MPI_Session; /* MPI-4.0 11.3 */

/* A handle's value is (kind << 26) | index; predefined objects have small
 * indices. The encoding is part of the ABI (it is what MPI_*_c2f returns). */
#define IMPI_KIND_COMM 1
#define IMPI_KIND_GROUP 2
#define IMPI_KIND_DATATYPE 3
#define IMPI_KIND_OP 4
#define IMPI_KIND_ERRHANDLER 5
#define IMPI_KIND_REQUEST 6
#define IMPI_KIND_INFO 7
#define IMPI_KIND_WIN 8
#define IMPI_KIND_FILE 9
#define IMPI_KIND_MESSAGE 10
#define IMPI_KIND_SESSION 11
#define IMPI_HANDLE_(type, kind, index) ((type)(size_t)((((size_t)(kind)) << 26) | (size_t)(index)))

/* ------------------------------------------------------------ status */
typedef struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int impi_cancelled;   /* private */
  MPI_Count impi_count; /* private: bytes received */
} MPI_Status;

#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
/* mpi_f08's TYPE(MPI_Status) (MPI-4.1 19.3.5): MPI_F_STATUS_SIZE INTEGERs. */
typedef struct MPI_F08_status {
  MPI_Fint MPI_SOURCE;
  MPI_Fint MPI_TAG;
  MPI_Fint MPI_ERROR;
  MPI_Fint impi_internal[3]; /* private */
} MPI_F08_status;
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status *)0)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)0)

/* ------------------------------------------------------------ null and predefined handles */
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_INFO_NULL ((MPI_Info)0)
#define MPI_WIN_NULL ((MPI_Win)0)
#define MPI_FILE_NULL ((MPI_File)0)
#define MPI_MESSAGE_NULL ((MPI_Message)0)

#define MPI_COMM_WORLD IMPI_HANDLE_(MPI_Comm, IMPI_KIND_COMM, 1)
#define MPI_COMM_SELF IMPI_HANDLE_(MPI_Comm, IMPI_KIND_COMM, 2)

#define MPI_GROUP_EMPTY IMPI_HANDLE_(MPI_Group, IMPI_KIND_GROUP, 1)

#define MPI_MESSAGE_NO_PROC IMPI_HANDLE_(MPI_Message, IMPI_KIND_MESSAGE, 1)

#define MPI_INFO_ENV IMPI_HANDLE_(MPI_Info, IMPI_KIND_INFO, 1)

#define MPI_ERRORS_ARE_FATAL IMPI_HANDLE_(MPI_Errhandler, IMPI_KIND_ERRHANDLER, 1)
#define MPI_ERRORS_RETURN IMPI_HANDLE_(MPI_Errhandler, IMPI_KIND_ERRHANDLER, 2)
/* MPI-4.0 9.3: aborts the processes of the communicator (MPI_Abort on it). */
#define MPI_ERRORS_ABORT IMPI_HANDLE_(MPI_Errhandler, IMPI_KIND_ERRHANDLER, 3)

/* Predefined datatypes: index order is the table in src/pack. */
#define IMPI_DT_(i) IMPI_HANDLE_(MPI_Datatype, IMPI_KIND_DATATYPE, i)
#define MPI_CHAR IMPI_DT_(1)
#define MPI_SIGNED_CHAR IMPI_DT_(2)
#define MPI_UNSIGNED_CHAR IMPI_DT_(3)
#define MPI_BYTE IMPI_DT_(4)
#define MPI_WCHAR IMPI_DT_(5)
#define MPI_SHORT IMPI_DT_(6)
#define MPI_UNSIGNED_SHORT IMPI_DT_(7)
#define MPI_INT IMPI_DT_(8)
#define MPI_UNSIGNED IMPI_DT_(9)
#define MPI_LONG IMPI_DT_(10)
#define MPI_UNSIGNED_LONG IMPI_DT_(11)
#define MPI_LONG_LONG_INT IMPI_DT_(12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG IMPI_DT_(13)
#define MPI_FLOAT IMPI_DT_(14)
#define MPI_DOUBLE IMPI_DT_(15)
#define MPI_LONG_DOUBLE IMPI_DT_(16)
#define MPI_C_BOOL IMPI_DT_(17)
#define MPI_INT8_T IMPI_DT_(18)
#define MPI_INT16_T IMPI_DT_(19)
#define MPI_INT32_T IMPI_DT_(20)
#define MPI_INT64_T IMPI_DT_(21)
#define MPI_UINT8_T IMPI_DT_(22)
#define MPI_UINT16_T IMPI_DT_(23)
#define MPI_UINT32_T IMPI_DT_(24)
#define MPI_UINT64_T IMPI_DT_(25)
#define MPI_C_COMPLEX IMPI_DT_(26)
#define MPI_C_FLOAT_COMPLEX IMPI_DT_(26)
#define MPI_C_DOUBLE_COMPLEX IMPI_DT_(27)
#define MPI_C_LONG_DOUBLE_COMPLEX IMPI_DT_(28)
#define MPI_AINT IMPI_DT_(29)
#define MPI_OFFSET IMPI_DT_(30)
#define MPI_COUNT IMPI_DT_(31)
#define MPI_PACKED IMPI_DT_(32)
#define MPI_FLOAT_INT IMPI_DT_(33)
#define MPI_DOUBLE_INT IMPI_DT_(34)
#define MPI_LONG_INT IMPI_DT_(35)
#define MPI_2INT IMPI_DT_(36)
#define MPI_SHORT_INT IMPI_DT_(37)
#define MPI_LONG_DOUBLE_INT IMPI_DT_(38)
#define MPI_CXX_BOOL IMPI_DT_(39)
#define MPI_CXX_FLOAT_COMPLEX IMPI_DT_(40)
#define MPI_CXX_DOUBLE_COMPLEX IMPI_DT_(41)
#define MPI_CXX_LONG_DOUBLE_COMPLEX IMPI_DT_(42)
/* Fortran types, usable from C with gfortran's default sizes (INTEGER,
 * LOGICAL, REAL 4 bytes; DOUBLE PRECISION 8). */
#define MPI_CHARACTER IMPI_DT_(43)
#define MPI_LOGICAL IMPI_DT_(44)
#define MPI_INTEGER IMPI_DT_(45)
#define MPI_REAL IMPI_DT_(46)
#define MPI_DOUBLE_PRECISION IMPI_DT_(47)
#define MPI_COMPLEX IMPI_DT_(48)
#define MPI_DOUBLE_COMPLEX IMPI_DT_(49)
#define MPI_2REAL IMPI_DT_(50)
#define MPI_2DOUBLE_PRECISION IMPI_DT_(51)
#define MPI_2INTEGER IMPI_DT_(52)
#define MPI_INTEGER1 IMPI_DT_(53)
#define MPI_INTEGER2 IMPI_DT_(54)
#define MPI_INTEGER4 IMPI_DT_(55)
#define MPI_INTEGER8 IMPI_DT_(56)
#define MPI_REAL4 IMPI_DT_(57)
#define MPI_REAL8 IMPI_DT_(58)
#define MPI_COMPLEX8 IMPI_DT_(59)
#define MPI_COMPLEX16 IMPI_DT_(60)
#define IMPI_DT_LAST_PREDEFINED 60
/* Optional types gfortran has no default kind for here (MPI-3.1 3.2.2):
 * MPI_DATATYPE_NULL, as Open MPI defines those its compiler lacks. */
#define MPI_INTEGER16 MPI_DATATYPE_NULL
#define MPI_REAL2 MPI_DATATYPE_NULL
#define MPI_REAL16 MPI_DATATYPE_NULL
#define MPI_COMPLEX4 MPI_DATATYPE_NULL
#define MPI_COMPLEX32 MPI_DATATYPE_NULL

/* Predefined reduction operators. */
#define IMPI_OP_(i) IMPI_HANDLE_(MPI_Op, IMPI_KIND_OP, i)
#define MPI_MAX IMPI_OP_(1)
#define MPI_MIN IMPI_OP_(2)
#define MPI_SUM IMPI_OP_(3)
#define MPI_PROD IMPI_OP_(4)
#define MPI_LAND IMPI_OP_(5)
#define MPI_BAND IMPI_OP_(6)
#define MPI_LOR IMPI_OP_(7)
#define MPI_BOR IMPI_OP_(8)
#define MPI_LXOR IMPI_OP_(9)
#define MPI_BXOR IMPI_OP_(10)
#define MPI_MINLOC IMPI_OP_(11)
#define MPI_MAXLOC IMPI_OP_(12)
#define MPI_REPLACE IMPI_OP_(13)
#define MPI_NO_OP IMPI_OP_(14)

/* ------------------------------------------------------------ error classes */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_ASSERT 22
#define MPI_ERR_BAD_FILE 23
#define MPI_ERR_BASE 24
#define MPI_ERR_CONVERSION 25
#define MPI_ERR_DISP 26
#define MPI_ERR_DUP_DATAREP 27
#define MPI_ERR_FILE_EXISTS 28
#define MPI_ERR_FILE_IN_USE 29
#define MPI_ERR_FILE 30
#define MPI_ERR_INFO_KEY 31
#define MPI_ERR_INFO_NOKEY 32
#define MPI_ERR_INFO_VALUE 33
#define MPI_ERR_INFO 34
#define MPI_ERR_IO 35
#define MPI_ERR_KEYVAL 36
#define MPI_ERR_LOCKTYPE 37
#define MPI_ERR_NAME 38
#define MPI_ERR_NO_MEM 39
#define MPI_ERR_NOT_SAME 40
#define MPI_ERR_NO_SPACE 41
#define MPI_ERR_NO_SUCH_FILE 42
#define MPI_ERR_PORT 43
#define MPI_ERR_QUOTA 44
#define MPI_ERR_READ_ONLY 45
#define MPI_ERR_RMA_CONFLICT 46
#define MPI_ERR_RMA_SYNC 47
#define MPI_ERR_SERVICE 48
#define MPI_ERR_SIZE 49
#define MPI_ERR_SPAWN 50
#define MPI_ERR_UNSUPPORTED_DATAREP 51
#define MPI_ERR_UNSUPPORTED_OPERATION 52
#define MPI_ERR_WIN 53
#define MPI_ERR_RMA_RANGE 54
#define MPI_ERR_RMA_ATTACH 55
#define MPI_ERR_RMA_SHARED 56
#define MPI_ERR_RMA_FLAVOR 57
/* MPI-4 classes (58, 59; then after the MPI_T codes, which are valid
 * codes too). */
#define MPI_ERR_SESSION 58
#define MPI_ERR_PROC_ABORTED 59
#define MPI_ERR_VALUE_TOO_LARGE 76
#define MPI_ERR_ERRHANDLER 77       /* MPI-4.1 */
#define MPI_T_ERR_NOT_ACCESSIBLE 78 /* MPI-4.0 tool-interface codes */
#define MPI_T_ERR_NOT_SUPPORTED 79
#define MPI_ERR_LASTCODE 79

/* Tool-interface return codes (MPI_T_*). */
#define MPI_T_ERR_MEMORY 60
#define MPI_T_ERR_NOT_INITIALIZED 61
#define MPI_T_ERR_CANNOT_INIT 62
#define MPI_T_ERR_INVALID_INDEX 63
#define MPI_T_ERR_INVALID_ITEM 64
#define MPI_T_ERR_INVALID_HANDLE 65
#define MPI_T_ERR_OUT_OF_HANDLES 66
#define MPI_T_ERR_OUT_OF_SESSIONS 67
#define MPI_T_ERR_INVALID_SESSION 68
#define MPI_T_ERR_CVAR_SET_NOT_NOW 69
#define MPI_T_ERR_CVAR_SET_NEVER 70
#define MPI_T_ERR_PVAR_NO_STARTSTOP 71
#define MPI_T_ERR_PVAR_NO_WRITE 72
#define MPI_T_ERR_PVAR_NO_ATOMIC 73
#define MPI_T_ERR_INVALID_NAME 74
#define MPI_T_ERR_INVALID 75

/* ------------------------------------------------------------ constants */
#define MPI_PROC_NULL (-2)
#define MPI_ANY_SOURCE (-1)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID (-1)
#define MPI_BSEND_OVERHEAD 96
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 256
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_PSET_NAME_LEN 256 /* MPI-4.0 11.3.2 */
#define MPI_MAX_STRINGTAG_LEN 256
#define MPI_MAX_PORT_NAME 1024
#define MPI_MAX_DATAREP_STRING 128

#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)1)
#define MPI_BUFFER_AUTOMATIC ((void *)2)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_ERRCODES_IGNORE ((int *)0)
/* Addresses of real storage in libmpi (as MPICH has them), not small
 * integers cast to pointers: gcc's access checks (-Wstringop-overread)
 * would otherwise flag every call that passes them. */
IMPI_API extern int *const MPI_UNWEIGHTED;
IMPI_API extern int *const MPI_WEIGHTS_EMPTY;

/* Thread support levels. */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* Results of MPI_Comm_compare / MPI_Group_compare. */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* Topologies. */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

/* MPI_Comm_split_type. */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_UNGUIDED 2 /* MPI-4.0 7.4.2 */
#define MPI_COMM_TYPE_HW_GUIDED 3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4 /* MPI-4.1 */

/* Datatype combiners (MPI_Type_get_envelope). */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19

/* Subarray / darray. */
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* MPI_Type_match_size. */
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* Predefined attribute keys. */
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6
#define MPI_APPNUM 7
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12
/* IMPI 2.5: on every communicator, the number of IMPI clients (hosts) it
 * spans and the caller's among them, ordered as in MPI_COMM_WORLD. */
#define IMPI_CLIENT_SIZE 13
#define IMPI_CLIENT_COLOR 14
#define IMPI_HOST_SIZE 15
#define IMPI_HOST_COLOR 16

/* One-sided. */
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235

/* MPI-IO. */
#define MPI_MODE_RDONLY 2
#define MPI_MODE_RDWR 8
#define MPI_MODE_WRONLY 4
#define MPI_MODE_CREATE 1
#define MPI_MODE_EXCL 64
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)

/* Tool interface. */
typedef struct impi_t_enum_ *MPI_T_enum;
typedef struct impi_t_cvar_handle_ *MPI_T_cvar_handle;
typedef struct impi_t_pvar_handle_ *MPI_T_pvar_handle;
typedef struct impi_t_pvar_session_ *MPI_T_pvar_session;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)1)
#define MPI_T_VERBOSITY_USER_BASIC 221
#define MPI_T_VERBOSITY_USER_DETAIL 222
#define MPI_T_VERBOSITY_USER_ALL 223
#define MPI_T_VERBOSITY_TUNER_BASIC 224
#define MPI_T_VERBOSITY_TUNER_DETAIL 225
#define MPI_T_VERBOSITY_TUNER_ALL 226
#define MPI_T_VERBOSITY_MPIDEV_BASIC 227
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 228
#define MPI_T_VERBOSITY_MPIDEV_ALL 229
#define MPI_T_BIND_NO_OBJECT 9700
#define MPI_T_BIND_MPI_COMM 9701
#define MPI_T_BIND_MPI_DATATYPE 9702
#define MPI_T_BIND_MPI_ERRHANDLER 9703
#define MPI_T_BIND_MPI_FILE 9704
#define MPI_T_BIND_MPI_GROUP 9705
#define MPI_T_BIND_MPI_OP 9706
#define MPI_T_BIND_MPI_REQUEST 9707
#define MPI_T_BIND_MPI_WIN 9708
#define MPI_T_BIND_MPI_MESSAGE 9709
#define MPI_T_BIND_MPI_INFO 9710
#define MPI_T_SCOPE_CONSTANT 60438
#define MPI_T_SCOPE_READONLY 60439
#define MPI_T_SCOPE_LOCAL 60440
#define MPI_T_SCOPE_GROUP 60441
#define MPI_T_SCOPE_GROUP_EQ 60442
#define MPI_T_SCOPE_ALL 60443
#define MPI_T_SCOPE_ALL_EQ 60444
#define MPI_T_PVAR_CLASS_STATE 240
#define MPI_T_PVAR_CLASS_LEVEL 241
#define MPI_T_PVAR_CLASS_SIZE 242
#define MPI_T_PVAR_CLASS_PERCENTAGE 243
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 244
#define MPI_T_PVAR_CLASS_LOWWATERMARK 245
#define MPI_T_PVAR_CLASS_COUNTER 246
#define MPI_T_PVAR_CLASS_AGGREGATE 247
#define MPI_T_PVAR_CLASS_TIMER 248
#define MPI_T_PVAR_CLASS_GENERIC 249
/* Tool events (MPI-4.0 15.3.8). */
typedef struct impi_t_event_registration_ *MPI_T_event_registration;
typedef struct impi_t_event_instance_ *MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
  MPI_T_CB_REQUIRE_NONE = 0,
  MPI_T_CB_REQUIRE_MPI_RESTRICTED,
  MPI_T_CB_REQUIRE_THREAD_SAFE,
  MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
  MPI_T_SOURCE_ORDERED = 0,
  MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;
typedef void(MPI_T_event_cb_function)(MPI_T_event_instance event_instance,
                                      MPI_T_event_registration event_registration,
                                      MPI_T_cb_safety cb_safety, void *user_data);
typedef void(MPI_T_event_free_cb_function)(MPI_T_event_registration event_registration,
                                           MPI_T_cb_safety cb_safety, void *user_data);
typedef void(MPI_T_event_dropped_cb_function)(MPI_Count count,
                                              MPI_T_event_registration event_registration,
                                              int source_index, MPI_T_cb_safety cb_safety,
                                              void *user_data);

/* ------------------------------------------------------------ callback types */
typedef void(MPI_User_function)(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void(MPI_User_function_c)(void *invec, void *inoutvec, MPI_Count *len,
                                  MPI_Datatype *datatype); /* MPI_Op_create_c (MPI-4.0) */
typedef int(MPI_Comm_copy_attr_function)(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                         void *attribute_val_in, void *attribute_val_out,
                                         int *flag);
typedef int(MPI_Comm_delete_attr_function)(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                           void *extra_state);
typedef int(MPI_Type_copy_attr_function)(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                         void *attribute_val_in, void *attribute_val_out,
                                         int *flag);
typedef int(MPI_Type_delete_attr_function)(MPI_Datatype datatype, int type_keyval,
                                           void *attribute_val, void *extra_state);
typedef int(MPI_Win_copy_attr_function)(MPI_Win oldwin, int win_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int(MPI_Win_delete_attr_function)(MPI_Win win, int win_keyval, void *attribute_val,
                                          void *extra_state);
typedef void(MPI_Comm_errhandler_function)(MPI_Comm *comm, int *error_code, ...);
typedef void(MPI_Win_errhandler_function)(MPI_Win *win, int *error_code, ...);
typedef void(MPI_File_errhandler_function)(MPI_File *file, int *error_code, ...);
typedef void(MPI_Session_errhandler_function)(MPI_Session *session, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn; /* deprecated names */
typedef MPI_Comm_errhandler_function MPI_Handler_function;   /* MPI-1, removed in 3.0 */
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int(MPI_Copy_function)(MPI_Comm oldcomm, int keyval, void *extra_state,
                               void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int(MPI_Delete_function)(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef int(MPI_Grequest_query_function)(void *extra_state, MPI_Status *status);
typedef int(MPI_Grequest_free_function)(void *extra_state);
typedef int(MPI_Grequest_cancel_function)(void *extra_state, int complete);
typedef int(MPI_Datarep_extent_function)(MPI_Datatype datatype, MPI_Aint *file_extent,
                                         void *extra_state);
typedef int(MPI_Datarep_conversion_function)(void *userbuf, MPI_Datatype datatype, int count,
                                             void *filebuf, MPI_Offset position, void *extra_state);
typedef int(MPI_Datarep_conversion_function_c)(void *userbuf, MPI_Datatype datatype,
                                               MPI_Count count, void *filebuf, MPI_Offset position,
                                               void *extra_state);

/* Predefined attribute callbacks (functions the library provides). */
IMPI_API int impi_comm_null_copy_fn(MPI_Comm, int, void *, void *, void *, int *);
IMPI_API int impi_comm_dup_fn(MPI_Comm, int, void *, void *, void *, int *);
IMPI_API int impi_comm_null_delete_fn(MPI_Comm, int, void *, void *);
IMPI_API int impi_type_null_copy_fn(MPI_Datatype, int, void *, void *, void *, int *);
IMPI_API int impi_type_dup_fn(MPI_Datatype, int, void *, void *, void *, int *);
IMPI_API int impi_type_null_delete_fn(MPI_Datatype, int, void *, void *);
IMPI_API int impi_win_null_copy_fn(MPI_Win, int, void *, void *, void *, int *);
IMPI_API int impi_win_dup_fn(MPI_Win, int, void *, void *, void *, int *);
IMPI_API int impi_win_null_delete_fn(MPI_Win, int, void *, void *);
#define MPI_COMM_NULL_COPY_FN impi_comm_null_copy_fn
#define MPI_COMM_DUP_FN impi_comm_dup_fn
#define MPI_COMM_NULL_DELETE_FN impi_comm_null_delete_fn
#define MPI_TYPE_NULL_COPY_FN impi_type_null_copy_fn
#define MPI_TYPE_DUP_FN impi_type_dup_fn
#define MPI_TYPE_NULL_DELETE_FN impi_type_null_delete_fn
#define MPI_WIN_NULL_COPY_FN impi_win_null_copy_fn
#define MPI_WIN_DUP_FN impi_win_dup_fn
#define MPI_WIN_NULL_DELETE_FN impi_win_null_delete_fn
#define MPI_NULL_COPY_FN impi_comm_null_copy_fn
#define MPI_DUP_FN impi_comm_dup_fn
#define MPI_NULL_DELETE_FN impi_comm_null_delete_fn
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)

/* MPICH 4.0's names, before MPI-4.1, of MPI_Remove_error_class/code/string
 * (the same functions). */
IMPI_API int MPIX_Delete_error_class(int errorclass);
IMPI_API int MPIX_Delete_error_code(int errorcode);
IMPI_API int MPIX_Delete_error_string(int errorcode);
IMPI_API int PMPIX_Delete_error_class(int errorclass);
IMPI_API int PMPIX_Delete_error_code(int errorcode);
IMPI_API int PMPIX_Delete_error_string(int errorcode);

/* ------------------------------------------------------------ functions */
/* clang-format off */
/* BEGIN GENERATED PROTOTYPES (tools/gen_api.py from src/api/mpi_functions.txt) */
IMPI_API int MPI_Abort(MPI_Comm comm, int errorcode);
IMPI_API int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int MPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int MPI_Add_error_class(int *errorclass);
IMPI_API int MPI_Add_error_code(int errorclass, int *errorcode);
IMPI_API int MPI_Add_error_string(int errorcode, const char *string);
IMPI_API int MPI_Address(void *location, MPI_Aint *address);
IMPI_API MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
IMPI_API MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
IMPI_API int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
IMPI_API int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Attr_delete(MPI_Comm comm, int keyval);
IMPI_API int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
IMPI_API int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
IMPI_API int MPI_Barrier(MPI_Comm comm);
IMPI_API int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
IMPI_API int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm);
IMPI_API int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Buffer_attach(void *buffer, int size);
IMPI_API int MPI_Buffer_attach_c(void *buffer, MPI_Count size);
IMPI_API int MPI_Buffer_detach(void *buffer, int *size);
IMPI_API int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size);
IMPI_API int MPI_Buffer_flush(void);
IMPI_API int MPI_Buffer_iflush(MPI_Request *request);
IMPI_API int MPI_Cancel(MPI_Request *request);
IMPI_API int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
IMPI_API int MPI_Cart_create(MPI_Comm old_comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart);
IMPI_API int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
IMPI_API int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank);
IMPI_API int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
IMPI_API int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
IMPI_API int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *new_comm);
IMPI_API int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
IMPI_API int MPI_Close_port(const char *port_name);
IMPI_API int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size);
IMPI_API int MPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size);
IMPI_API MPI_Fint MPI_Comm_c2f(MPI_Comm comm);
IMPI_API int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
IMPI_API int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
IMPI_API int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler);
IMPI_API int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state);
IMPI_API int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
IMPI_API int MPI_Comm_detach_buffer(MPI_Comm comm, void *buffer, int *size);
IMPI_API int MPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size);
IMPI_API int MPI_Comm_disconnect(MPI_Comm *comm);
IMPI_API int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
IMPI_API MPI_Comm MPI_Comm_f2c(MPI_Fint comm);
IMPI_API int MPI_Comm_flush_buffer(MPI_Comm comm);
IMPI_API int MPI_Comm_free(MPI_Comm *comm);
IMPI_API int MPI_Comm_free_keyval(int *comm_keyval);
IMPI_API int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
IMPI_API int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *erhandler);
IMPI_API int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
IMPI_API int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
IMPI_API int MPI_Comm_get_parent(MPI_Comm *parent);
IMPI_API int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
IMPI_API int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
IMPI_API int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request);
IMPI_API int MPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Comm_join(int fd, MPI_Comm *intercomm);
IMPI_API int MPI_Comm_rank(MPI_Comm comm, int *rank);
IMPI_API int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
IMPI_API int MPI_Comm_remote_size(MPI_Comm comm, int *size);
IMPI_API int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
IMPI_API int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
IMPI_API int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
IMPI_API int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
IMPI_API int MPI_Comm_size(MPI_Comm comm, int *size);
IMPI_API int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]);
IMPI_API int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]);
IMPI_API int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm);
IMPI_API int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
IMPI_API int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win);
IMPI_API int MPI_Dims_create(int nnodes, int ndims, int dims[]);
IMPI_API int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int nodes[], const int degrees[], const int targets[], const int weights[], MPI_Info info, int reorder, MPI_Comm * newcomm);
IMPI_API int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree, const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph);
IMPI_API int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree, int destinations[], int destweights[]);
IMPI_API int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *inneighbors, int *outneighbors, int *weighted);
IMPI_API MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler);
IMPI_API int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler);
IMPI_API MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler);
IMPI_API int MPI_Errhandler_free(MPI_Errhandler *errhandler);
IMPI_API int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);
IMPI_API int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
IMPI_API int MPI_Error_class(int errorcode, int *errorclass);
IMPI_API int MPI_Error_string(int errorcode, char *string, int *resultlen);
IMPI_API int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win);
IMPI_API MPI_Fint MPI_File_c2f(MPI_File file);
IMPI_API int MPI_File_call_errhandler(MPI_File fh, int errorcode);
IMPI_API int MPI_File_close(MPI_File *fh);
IMPI_API int MPI_File_create_errhandler(MPI_File_errhandler_function *function, MPI_Errhandler *errhandler);
IMPI_API int MPI_File_delete(const char *filename, MPI_Info info);
IMPI_API MPI_File MPI_File_f2c(MPI_Fint file);
IMPI_API int MPI_File_get_amode(MPI_File fh, int *amode);
IMPI_API int MPI_File_get_atomicity(MPI_File fh, int *flag);
IMPI_API int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp);
IMPI_API int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
IMPI_API int MPI_File_get_group(MPI_File fh, MPI_Group *group);
IMPI_API int MPI_File_get_info(MPI_File fh, MPI_Info *info_used);
IMPI_API int MPI_File_get_position(MPI_File fh, MPI_Offset *offset);
IMPI_API int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
IMPI_API int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
IMPI_API int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent);
IMPI_API int MPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent);
IMPI_API int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep);
IMPI_API int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh);
IMPI_API int MPI_File_preallocate(MPI_File fh, MPI_Offset size);
IMPI_API int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype);
IMPI_API int MPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
IMPI_API int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void * buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype);
IMPI_API int MPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
IMPI_API int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype);
IMPI_API int MPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
IMPI_API int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
IMPI_API int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
IMPI_API int MPI_File_set_atomicity(MPI_File fh, int flag);
IMPI_API int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
IMPI_API int MPI_File_set_info(MPI_File fh, MPI_Info info);
IMPI_API int MPI_File_set_size(MPI_File fh, MPI_Offset size);
IMPI_API int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info);
IMPI_API int MPI_File_sync(MPI_File fh);
IMPI_API int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype);
IMPI_API int MPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
IMPI_API int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void * buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype);
IMPI_API int MPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status);
IMPI_API int MPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype);
IMPI_API int MPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status);
IMPI_API int MPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int MPI_Finalize(void);
IMPI_API int MPI_Finalized(int *flag);
IMPI_API int MPI_Free_mem(void *base);
IMPI_API int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int MPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int MPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int MPI_Get_address(const void *location, MPI_Aint *address);
IMPI_API int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
IMPI_API int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
IMPI_API int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);
IMPI_API int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
IMPI_API int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
IMPI_API int MPI_Get_hw_resource_info(MPI_Info *hw_info);
IMPI_API int MPI_Get_library_version(char *version, int *resultlen);
IMPI_API int MPI_Get_processor_name(char *name, int *resultlen);
IMPI_API int MPI_Get_version(int *version, int *subversion);
IMPI_API int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph);
IMPI_API int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
IMPI_API int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank);
IMPI_API int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
IMPI_API int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
IMPI_API int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
IMPI_API int MPI_Grequest_complete(MPI_Request request);
IMPI_API int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request);
IMPI_API MPI_Fint MPI_Group_c2f(MPI_Group group);
IMPI_API int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
IMPI_API int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
IMPI_API int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
IMPI_API MPI_Group MPI_Group_f2c(MPI_Fint group);
IMPI_API int MPI_Group_free(MPI_Group *group);
IMPI_API int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup);
IMPI_API int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
IMPI_API int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
IMPI_API int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
IMPI_API int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
IMPI_API int MPI_Group_rank(MPI_Group group, int *rank);
IMPI_API int MPI_Group_size(MPI_Group group, int *size);
IMPI_API int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]);
IMPI_API int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
IMPI_API int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status);
IMPI_API int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *request);
IMPI_API int MPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
IMPI_API int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API MPI_Fint MPI_Info_c2f(MPI_Info info);
IMPI_API int MPI_Info_create(MPI_Info *info);
IMPI_API int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
IMPI_API int MPI_Info_delete(MPI_Info info, const char *key);
IMPI_API int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
IMPI_API MPI_Info MPI_Info_f2c(MPI_Fint info);
IMPI_API int MPI_Info_free(MPI_Info *info);
IMPI_API int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
IMPI_API int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
IMPI_API int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
IMPI_API int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);
IMPI_API int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
IMPI_API int MPI_Info_set(MPI_Info info, const char *key, const char *value);
IMPI_API int MPI_Init(int *argc, char ***argv);
IMPI_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
IMPI_API int MPI_Initialized(int *flag);
IMPI_API int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm bridge_comm, int remote_leader, int tag, MPI_Comm *newintercomm);
IMPI_API int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group, int remote_leader, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newintercomm);
IMPI_API int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintercomm);
IMPI_API int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
IMPI_API int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Is_thread_main(int *flag);
IMPI_API int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state);
IMPI_API int MPI_Keyval_free(int *keyval);
IMPI_API int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name);
IMPI_API MPI_Fint MPI_Message_c2f(MPI_Message message);
IMPI_API MPI_Message MPI_Message_f2c(MPI_Fint message);
IMPI_API int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
IMPI_API int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status);
IMPI_API int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
IMPI_API int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int MPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API MPI_Fint MPI_Op_c2f(MPI_Op op);
IMPI_API int MPI_Op_commutative(MPI_Op op, int *commute);
IMPI_API int MPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op);
IMPI_API int MPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op);
IMPI_API MPI_Op MPI_Op_f2c(MPI_Fint op);
IMPI_API int MPI_Op_free(MPI_Op *op);
IMPI_API int MPI_Open_port(MPI_Info info, char *port_name);
IMPI_API int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position, MPI_Comm comm);
IMPI_API int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm);
IMPI_API int MPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position);
IMPI_API int MPI_Pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position);
IMPI_API int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size);
IMPI_API int MPI_Pack_external_size_c(const char *datarep, MPI_Count incount, MPI_Datatype datatype, MPI_Count *size);
IMPI_API int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size);
IMPI_API int MPI_Parrived(MPI_Request request, int partition, int *flag);
IMPI_API int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size);
IMPI_API int MPI_Pcontrol(const int level, ...);
IMPI_API int MPI_Pready(int partition, MPI_Request request);
IMPI_API int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request);
IMPI_API int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request);
IMPI_API int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
IMPI_API int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name);
IMPI_API int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int MPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int MPI_Query_thread(int *provided);
IMPI_API int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
IMPI_API int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
IMPI_API int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
IMPI_API int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
IMPI_API int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op);
IMPI_API int MPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op);
IMPI_API int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn, MPI_Datarep_conversion_function *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state);
IMPI_API int MPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn, MPI_Datarep_conversion_function_c *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state);
IMPI_API int MPI_Remove_error_class(int errorclass);
IMPI_API int MPI_Remove_error_code(int errorcode);
IMPI_API int MPI_Remove_error_string(int errorcode);
IMPI_API MPI_Fint MPI_Request_c2f(MPI_Request request);
IMPI_API MPI_Request MPI_Request_f2c(MPI_Fint request);
IMPI_API int MPI_Request_free(MPI_Request *request);
IMPI_API int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
IMPI_API int MPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
IMPI_API int MPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
IMPI_API int MPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
IMPI_API int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_cout, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int MPI_Rsend(const void *ibuf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API int MPI_Sendrecv_replace(void * buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API MPI_Fint MPI_Session_c2f(MPI_Session session);
IMPI_API int MPI_Session_call_errhandler(MPI_Session session, int errorcode);
IMPI_API int MPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler);
IMPI_API MPI_Session MPI_Session_f2c(MPI_Fint session);
IMPI_API int MPI_Session_finalize(MPI_Session *session);
IMPI_API int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler);
IMPI_API int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
IMPI_API int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name);
IMPI_API int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names);
IMPI_API int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info);
IMPI_API int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session);
IMPI_API int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
IMPI_API int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API int MPI_Session_attach_buffer(MPI_Session session, void *buffer, int size);
IMPI_API int MPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size);
IMPI_API int MPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size);
IMPI_API int MPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size);
IMPI_API int MPI_Session_flush_buffer(MPI_Session session);
IMPI_API int MPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request);
IMPI_API int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int MPI_Start(MPI_Request *request);
IMPI_API int MPI_Startall(int count, MPI_Request array_of_requests[]);
IMPI_API int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
IMPI_API int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
IMPI_API int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
IMPI_API int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);
IMPI_API int MPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status);
IMPI_API int MPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status);
IMPI_API int MPI_Status_get_error(MPI_Status *status, int *error);
IMPI_API int MPI_Status_get_source(MPI_Status *status, int *source);
IMPI_API int MPI_Status_get_tag(MPI_Status *status, int *tag);
IMPI_API int MPI_Status_set_cancelled(MPI_Status *status, int flag);
IMPI_API int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count);
IMPI_API int MPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
IMPI_API int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
IMPI_API int MPI_T_category_changed(int *stamp);
IMPI_API int MPI_T_category_get_categories(int cat_index, int len, int indices[]);
IMPI_API int MPI_T_category_get_cvars(int cat_index, int len, int indices[]);
IMPI_API int MPI_T_category_get_index(const char *name, int *category_index);
IMPI_API int MPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars, int *num_pvars, int *num_categories);
IMPI_API int MPI_T_category_get_num(int *num_cat);
IMPI_API int MPI_T_category_get_pvars(int cat_index, int len, int indices[]);
IMPI_API int MPI_T_cvar_get_index(const char *name, int *cvar_index);
IMPI_API int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope);
IMPI_API int MPI_T_cvar_get_num(int *num_cvar);
IMPI_API int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count);
IMPI_API int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
IMPI_API int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
IMPI_API int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
IMPI_API int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len);
IMPI_API int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len);
IMPI_API int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info *info_used);
IMPI_API int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info);
IMPI_API int MPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer);
IMPI_API int MPI_T_event_get_index(const char *name, int *event_index);
IMPI_API int MPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind);
IMPI_API int MPI_T_event_get_num(int *num_events);
IMPI_API int MPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index);
IMPI_API int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp);
IMPI_API int MPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info, MPI_T_event_registration *event_registration);
IMPI_API int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data, MPI_T_event_free_cb_function free_cb_function);
IMPI_API int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used);
IMPI_API int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info);
IMPI_API int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer);
IMPI_API int MPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function);
IMPI_API int MPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration, MPI_T_event_dropped_cb_function dropped_cb_function);
IMPI_API int MPI_T_finalize(void);
IMPI_API int MPI_T_init_thread(int required, int *provided);
IMPI_API int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
IMPI_API int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int *atomic);
IMPI_API int MPI_T_pvar_get_num(int *num_pvar);
IMPI_API int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle, int *count);
IMPI_API int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle);
IMPI_API int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
IMPI_API int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
IMPI_API int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
IMPI_API int MPI_T_pvar_session_create(MPI_T_pvar_session *session);
IMPI_API int MPI_T_pvar_session_free(MPI_T_pvar_session *session);
IMPI_API int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
IMPI_API int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
IMPI_API int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf);
IMPI_API int MPI_Status_set_error(MPI_Status *status, int error);
IMPI_API int MPI_Status_set_source(MPI_Status *status, int source);
IMPI_API int MPI_Status_set_tag(MPI_Status *status, int tag);
IMPI_API int MPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len, MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info);
IMPI_API int MPI_T_source_get_num(int *num_sources);
IMPI_API int MPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp);
IMPI_API int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
IMPI_API int MPI_Test_cancelled(const MPI_Status *status, int *flag);
IMPI_API int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
IMPI_API int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
IMPI_API int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
IMPI_API int MPI_Topo_test(MPI_Comm comm, int *status);
IMPI_API MPI_Fint MPI_Type_c2f(MPI_Datatype datatype);
IMPI_API int MPI_Type_commit(MPI_Datatype *type);
IMPI_API int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_darray(int size, int rank, int ndims, const int gsize_array[], const int distrib_array[], const int darg_array[], const int psize_array[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state);
IMPI_API int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_struct(int count, const int array_of_block_lengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_subarray(int ndims, const int size_array[], const int subsize_array[], const int start_array[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_delete_attr(MPI_Datatype type, int type_keyval);
IMPI_API int MPI_Type_dup(MPI_Datatype type, MPI_Datatype *newtype);
IMPI_API int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
IMPI_API MPI_Datatype MPI_Type_f2c(MPI_Fint datatype);
IMPI_API int MPI_Type_free(MPI_Datatype *type);
IMPI_API int MPI_Type_free_keyval(int *type_keyval);
IMPI_API int MPI_Type_get_attr(MPI_Datatype type, int type_keyval, void *attribute_val, int *flag);
IMPI_API int MPI_Type_get_contents(MPI_Datatype mtype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]);
IMPI_API int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses, MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]);
IMPI_API int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner);
IMPI_API int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses, MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner);
IMPI_API int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
IMPI_API int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
IMPI_API int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
IMPI_API int MPI_Type_get_name(MPI_Datatype type, char *type_name, int *resultlen);
IMPI_API int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent);
IMPI_API int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent);
IMPI_API int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent);
IMPI_API int MPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type);
IMPI_API int MPI_Type_hindexed(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
IMPI_API int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *type);
IMPI_API int MPI_Type_set_attr(MPI_Datatype type, int type_keyval, void *attr_val);
IMPI_API int MPI_Type_set_name(MPI_Datatype type, const char *type_name);
IMPI_API int MPI_Type_size(MPI_Datatype type, int *size);
IMPI_API int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size);
IMPI_API int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size);
IMPI_API int MPI_Type_struct(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements, MPI_Datatype *array_of_types, MPI_Datatype *newtype);
IMPI_API int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
IMPI_API int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype, MPI_Comm comm);
IMPI_API int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm);
IMPI_API int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype);
IMPI_API int MPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype);
IMPI_API int MPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name);
IMPI_API int MPI_Wait(MPI_Request *request, MPI_Status *status);
IMPI_API int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses);
IMPI_API int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status);
IMPI_API int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
IMPI_API int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
IMPI_API MPI_Fint MPI_Win_c2f(MPI_Win win);
IMPI_API int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
IMPI_API int MPI_Win_complete(MPI_Win win);
IMPI_API int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
IMPI_API int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
IMPI_API int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
IMPI_API int MPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler);
IMPI_API int MPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state);
IMPI_API int MPI_Win_delete_attr(MPI_Win win, int win_keyval);
IMPI_API int MPI_Win_detach(MPI_Win win, const void *base);
IMPI_API MPI_Win MPI_Win_f2c(MPI_Fint win);
IMPI_API int MPI_Win_fence(int assert, MPI_Win win);
IMPI_API int MPI_Win_flush(int rank, MPI_Win win);
IMPI_API int MPI_Win_flush_all(MPI_Win win);
IMPI_API int MPI_Win_flush_local(int rank, MPI_Win win);
IMPI_API int MPI_Win_flush_local_all(MPI_Win win);
IMPI_API int MPI_Win_free(MPI_Win *win);
IMPI_API int MPI_Win_free_keyval(int *win_keyval);
IMPI_API int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag);
IMPI_API int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
IMPI_API int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
IMPI_API int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used);
IMPI_API int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen);
IMPI_API int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
IMPI_API int MPI_Win_lock_all(int assert, MPI_Win win);
IMPI_API int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
IMPI_API int MPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
IMPI_API int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
IMPI_API int MPI_Win_set_info(MPI_Win win, MPI_Info info);
IMPI_API int MPI_Win_set_name(MPI_Win win, const char *win_name);
IMPI_API int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr);
IMPI_API int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr);
IMPI_API int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
IMPI_API int MPI_Win_sync(MPI_Win win);
IMPI_API int MPI_Win_test(MPI_Win win, int *flag);
IMPI_API int MPI_Win_unlock(int rank, MPI_Win win);
IMPI_API int MPI_Win_unlock_all(MPI_Win win);
IMPI_API int MPI_Win_wait(MPI_Win win);
IMPI_API double MPI_Wtick(void);
IMPI_API double MPI_Wtime(void);

/* Profiling interface. */
IMPI_API int PMPI_Abort(MPI_Comm comm, int errorcode);
IMPI_API int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int PMPI_Add_error_class(int *errorclass);
IMPI_API int PMPI_Add_error_code(int errorclass, int *errorcode);
IMPI_API int PMPI_Add_error_string(int errorcode, const char *string);
IMPI_API int PMPI_Address(void *location, MPI_Aint *address);
IMPI_API MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp);
IMPI_API MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
IMPI_API int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
IMPI_API int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Attr_delete(MPI_Comm comm, int keyval);
IMPI_API int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
IMPI_API int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
IMPI_API int PMPI_Barrier(MPI_Comm comm);
IMPI_API int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
IMPI_API int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm);
IMPI_API int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Buffer_attach(void *buffer, int size);
IMPI_API int PMPI_Buffer_attach_c(void *buffer, MPI_Count size);
IMPI_API int PMPI_Buffer_detach(void *buffer, int *size);
IMPI_API int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size);
IMPI_API int PMPI_Buffer_flush(void);
IMPI_API int PMPI_Buffer_iflush(MPI_Request *request);
IMPI_API int PMPI_Cancel(MPI_Request *request);
IMPI_API int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
IMPI_API int PMPI_Cart_create(MPI_Comm old_comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart);
IMPI_API int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
IMPI_API int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank);
IMPI_API int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
IMPI_API int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
IMPI_API int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *new_comm);
IMPI_API int PMPI_Cartdim_get(MPI_Comm comm, int *ndims);
IMPI_API int PMPI_Close_port(const char *port_name);
IMPI_API int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size);
IMPI_API int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size);
IMPI_API MPI_Fint PMPI_Comm_c2f(MPI_Comm comm);
IMPI_API int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
IMPI_API int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
IMPI_API int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler);
IMPI_API int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state);
IMPI_API int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
IMPI_API int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer, int *size);
IMPI_API int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size);
IMPI_API int PMPI_Comm_disconnect(MPI_Comm *comm);
IMPI_API int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
IMPI_API MPI_Comm PMPI_Comm_f2c(MPI_Fint comm);
IMPI_API int PMPI_Comm_flush_buffer(MPI_Comm comm);
IMPI_API int PMPI_Comm_free(MPI_Comm *comm);
IMPI_API int PMPI_Comm_free_keyval(int *comm_keyval);
IMPI_API int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
IMPI_API int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *erhandler);
IMPI_API int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
IMPI_API int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
IMPI_API int PMPI_Comm_get_parent(MPI_Comm *parent);
IMPI_API int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group);
IMPI_API int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
IMPI_API int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request);
IMPI_API int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Comm_join(int fd, MPI_Comm *intercomm);
IMPI_API int PMPI_Comm_rank(MPI_Comm comm, int *rank);
IMPI_API int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
IMPI_API int PMPI_Comm_remote_size(MPI_Comm comm, int *size);
IMPI_API int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
IMPI_API int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
IMPI_API int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
IMPI_API int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
IMPI_API int PMPI_Comm_size(MPI_Comm comm, int *size);
IMPI_API int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]);
IMPI_API int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]);
IMPI_API int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm);
IMPI_API int PMPI_Comm_test_inter(MPI_Comm comm, int *flag);
IMPI_API int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win);
IMPI_API int PMPI_Dims_create(int nnodes, int ndims, int dims[]);
IMPI_API int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int nodes[], const int degrees[], const int targets[], const int weights[], MPI_Info info, int reorder, MPI_Comm * newcomm);
IMPI_API int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree, const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph);
IMPI_API int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree, int destinations[], int destweights[]);
IMPI_API int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *inneighbors, int *outneighbors, int *weighted);
IMPI_API MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler);
IMPI_API int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler);
IMPI_API MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler);
IMPI_API int PMPI_Errhandler_free(MPI_Errhandler *errhandler);
IMPI_API int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);
IMPI_API int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
IMPI_API int PMPI_Error_class(int errorcode, int *errorclass);
IMPI_API int PMPI_Error_string(int errorcode, char *string, int *resultlen);
IMPI_API int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win);
IMPI_API MPI_Fint PMPI_File_c2f(MPI_File file);
IMPI_API int PMPI_File_call_errhandler(MPI_File fh, int errorcode);
IMPI_API int PMPI_File_close(MPI_File *fh);
IMPI_API int PMPI_File_create_errhandler(MPI_File_errhandler_function *function, MPI_Errhandler *errhandler);
IMPI_API int PMPI_File_delete(const char *filename, MPI_Info info);
IMPI_API MPI_File PMPI_File_f2c(MPI_Fint file);
IMPI_API int PMPI_File_get_amode(MPI_File fh, int *amode);
IMPI_API int PMPI_File_get_atomicity(MPI_File fh, int *flag);
IMPI_API int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp);
IMPI_API int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
IMPI_API int PMPI_File_get_group(MPI_File fh, MPI_Group *group);
IMPI_API int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used);
IMPI_API int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset);
IMPI_API int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
IMPI_API int PMPI_File_get_size(MPI_File fh, MPI_Offset *size);
IMPI_API int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent);
IMPI_API int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent);
IMPI_API int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep);
IMPI_API int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request);
IMPI_API int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh);
IMPI_API int PMPI_File_preallocate(MPI_File fh, MPI_Offset size);
IMPI_API int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype);
IMPI_API int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
IMPI_API int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void * buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype);
IMPI_API int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
IMPI_API int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype);
IMPI_API int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
IMPI_API int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
IMPI_API int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
IMPI_API int PMPI_File_set_atomicity(MPI_File fh, int flag);
IMPI_API int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
IMPI_API int PMPI_File_set_info(MPI_File fh, MPI_Info info);
IMPI_API int PMPI_File_set_size(MPI_File fh, MPI_Offset size);
IMPI_API int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info);
IMPI_API int PMPI_File_sync(MPI_File fh);
IMPI_API int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype);
IMPI_API int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
IMPI_API int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void * buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype);
IMPI_API int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status);
IMPI_API int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype);
IMPI_API int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype);
IMPI_API int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status);
IMPI_API int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status);
IMPI_API int PMPI_Finalize(void);
IMPI_API int PMPI_Finalized(int *flag);
IMPI_API int PMPI_Free_mem(void *base);
IMPI_API int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
IMPI_API int PMPI_Get_address(const void *location, MPI_Aint *address);
IMPI_API int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
IMPI_API int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
IMPI_API int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);
IMPI_API int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
IMPI_API int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
IMPI_API int PMPI_Get_hw_resource_info(MPI_Info *hw_info);
IMPI_API int PMPI_Get_library_version(char *version, int *resultlen);
IMPI_API int PMPI_Get_processor_name(char *name, int *resultlen);
IMPI_API int PMPI_Get_version(int *version, int *subversion);
IMPI_API int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph);
IMPI_API int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
IMPI_API int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank);
IMPI_API int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
IMPI_API int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
IMPI_API int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
IMPI_API int PMPI_Grequest_complete(MPI_Request request);
IMPI_API int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request);
IMPI_API MPI_Fint PMPI_Group_c2f(MPI_Group group);
IMPI_API int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
IMPI_API int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
IMPI_API int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
IMPI_API MPI_Group PMPI_Group_f2c(MPI_Fint group);
IMPI_API int PMPI_Group_free(MPI_Group *group);
IMPI_API int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup);
IMPI_API int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
IMPI_API int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
IMPI_API int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
IMPI_API int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
IMPI_API int PMPI_Group_rank(MPI_Group group, int *rank);
IMPI_API int PMPI_Group_size(MPI_Group group, int *size);
IMPI_API int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]);
IMPI_API int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
IMPI_API int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status);
IMPI_API int PMPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *request);
IMPI_API int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
IMPI_API MPI_Fint PMPI_Info_c2f(MPI_Info info);
IMPI_API int PMPI_Info_create(MPI_Info *info);
IMPI_API int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
IMPI_API int PMPI_Info_delete(MPI_Info info, const char *key);
IMPI_API int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
IMPI_API MPI_Info PMPI_Info_f2c(MPI_Fint info);
IMPI_API int PMPI_Info_free(MPI_Info *info);
IMPI_API int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
IMPI_API int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys);
IMPI_API int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key);
IMPI_API int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);
IMPI_API int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
IMPI_API int PMPI_Info_set(MPI_Info info, const char *key, const char *value);
IMPI_API int PMPI_Init(int *argc, char ***argv);
IMPI_API int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided);
IMPI_API int PMPI_Initialized(int *flag);
IMPI_API int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm bridge_comm, int remote_leader, int tag, MPI_Comm *newintercomm);
IMPI_API int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group, int remote_leader, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newintercomm);
IMPI_API int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintercomm);
IMPI_API int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
IMPI_API int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Is_thread_main(int *flag);
IMPI_API int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state);
IMPI_API int PMPI_Keyval_free(int *keyval);
IMPI_API int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name);
IMPI_API MPI_Fint PMPI_Message_c2f(MPI_Message message);
IMPI_API MPI_Message PMPI_Message_f2c(MPI_Fint message);
IMPI_API int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
IMPI_API int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status);
IMPI_API int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
IMPI_API int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
IMPI_API int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
IMPI_API int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API MPI_Fint PMPI_Op_c2f(MPI_Op op);
IMPI_API int PMPI_Op_commutative(MPI_Op op, int *commute);
IMPI_API int PMPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op);
IMPI_API int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op);
IMPI_API MPI_Op PMPI_Op_f2c(MPI_Fint op);
IMPI_API int PMPI_Op_free(MPI_Op *op);
IMPI_API int PMPI_Open_port(MPI_Info info, char *port_name);
IMPI_API int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position, MPI_Comm comm);
IMPI_API int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm);
IMPI_API int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position);
IMPI_API int PMPI_Pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position);
IMPI_API int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size);
IMPI_API int PMPI_Pack_external_size_c(const char *datarep, MPI_Count incount, MPI_Datatype datatype, MPI_Count *size);
IMPI_API int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size);
IMPI_API int PMPI_Parrived(MPI_Request request, int partition, int *flag);
IMPI_API int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size);
IMPI_API int PMPI_Pcontrol(const int level, ...);
IMPI_API int PMPI_Pready(int partition, MPI_Request request);
IMPI_API int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request);
IMPI_API int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request);
IMPI_API int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
IMPI_API int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name);
IMPI_API int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win);
IMPI_API int PMPI_Query_thread(int *provided);
IMPI_API int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
IMPI_API int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
IMPI_API int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
IMPI_API int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
IMPI_API int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op);
IMPI_API int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op);
IMPI_API int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn, MPI_Datarep_conversion_function *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state);
IMPI_API int PMPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn, MPI_Datarep_conversion_function_c *write_conversion_fn, MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state);
IMPI_API int PMPI_Remove_error_class(int errorclass);
IMPI_API int PMPI_Remove_error_code(int errorcode);
IMPI_API int PMPI_Remove_error_string(int errorcode);
IMPI_API MPI_Fint PMPI_Request_c2f(MPI_Request request);
IMPI_API MPI_Request PMPI_Request_f2c(MPI_Fint request);
IMPI_API int PMPI_Request_free(MPI_Request *request);
IMPI_API int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
IMPI_API int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
IMPI_API int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
IMPI_API int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
IMPI_API int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_cout, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
IMPI_API int PMPI_Rsend(const void *ibuf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
IMPI_API int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
IMPI_API int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
IMPI_API int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API int PMPI_Sendrecv_replace(void * buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API MPI_Fint PMPI_Session_c2f(MPI_Session session);
IMPI_API int PMPI_Session_call_errhandler(MPI_Session session, int errorcode);
IMPI_API int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler);
IMPI_API MPI_Session PMPI_Session_f2c(MPI_Fint session);
IMPI_API int PMPI_Session_finalize(MPI_Session *session);
IMPI_API int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler);
IMPI_API int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
IMPI_API int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name);
IMPI_API int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names);
IMPI_API int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info);
IMPI_API int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session);
IMPI_API int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
IMPI_API int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
IMPI_API int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size);
IMPI_API int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size);
IMPI_API int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size);
IMPI_API int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size);
IMPI_API int PMPI_Session_flush_buffer(MPI_Session session);
IMPI_API int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request);
IMPI_API int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
IMPI_API int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
IMPI_API int PMPI_Start(MPI_Request *request);
IMPI_API int PMPI_Startall(int count, MPI_Request array_of_requests[]);
IMPI_API int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
IMPI_API int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
IMPI_API int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
IMPI_API int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);
IMPI_API int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status);
IMPI_API int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status);
IMPI_API int PMPI_Status_get_error(MPI_Status *status, int *error);
IMPI_API int PMPI_Status_get_source(MPI_Status *status, int *source);
IMPI_API int PMPI_Status_get_tag(MPI_Status *status, int *tag);
IMPI_API int PMPI_Status_set_cancelled(MPI_Status *status, int flag);
IMPI_API int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count);
IMPI_API int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
IMPI_API int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
IMPI_API int PMPI_T_category_changed(int *stamp);
IMPI_API int PMPI_T_category_get_categories(int cat_index, int len, int indices[]);
IMPI_API int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]);
IMPI_API int PMPI_T_category_get_index(const char *name, int *category_index);
IMPI_API int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars, int *num_pvars, int *num_categories);
IMPI_API int PMPI_T_category_get_num(int *num_cat);
IMPI_API int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]);
IMPI_API int PMPI_T_cvar_get_index(const char *name, int *cvar_index);
IMPI_API int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope);
IMPI_API int PMPI_T_cvar_get_num(int *num_cvar);
IMPI_API int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count);
IMPI_API int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
IMPI_API int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
IMPI_API int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
IMPI_API int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len);
IMPI_API int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len);
IMPI_API int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info *info_used);
IMPI_API int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info);
IMPI_API int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer);
IMPI_API int PMPI_T_event_get_index(const char *name, int *event_index);
IMPI_API int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind);
IMPI_API int PMPI_T_event_get_num(int *num_events);
IMPI_API int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index);
IMPI_API int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp);
IMPI_API int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info, MPI_T_event_registration *event_registration);
IMPI_API int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data, MPI_T_event_free_cb_function free_cb_function);
IMPI_API int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used);
IMPI_API int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info);
IMPI_API int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer);
IMPI_API int PMPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function);
IMPI_API int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration, MPI_T_event_dropped_cb_function dropped_cb_function);
IMPI_API int PMPI_T_finalize(void);
IMPI_API int PMPI_T_init_thread(int required, int *provided);
IMPI_API int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
IMPI_API int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int *atomic);
IMPI_API int PMPI_T_pvar_get_num(int *num_pvar);
IMPI_API int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle, int *count);
IMPI_API int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle);
IMPI_API int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
IMPI_API int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
IMPI_API int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
IMPI_API int PMPI_T_pvar_session_create(MPI_T_pvar_session *session);
IMPI_API int PMPI_T_pvar_session_free(MPI_T_pvar_session *session);
IMPI_API int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
IMPI_API int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
IMPI_API int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf);
IMPI_API int PMPI_Status_set_error(MPI_Status *status, int error);
IMPI_API int PMPI_Status_set_source(MPI_Status *status, int source);
IMPI_API int PMPI_Status_set_tag(MPI_Status *status, int tag);
IMPI_API int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len, MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info);
IMPI_API int PMPI_T_source_get_num(int *num_sources);
IMPI_API int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp);
IMPI_API int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
IMPI_API int PMPI_Test_cancelled(const MPI_Status *status, int *flag);
IMPI_API int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
IMPI_API int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status);
IMPI_API int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
IMPI_API int PMPI_Topo_test(MPI_Comm comm, int *status);
IMPI_API MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype);
IMPI_API int PMPI_Type_commit(MPI_Datatype *type);
IMPI_API int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsize_array[], const int distrib_array[], const int darg_array[], const int psize_array[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state);
IMPI_API int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_struct(int count, const int array_of_block_lengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_subarray(int ndims, const int size_array[], const int subsize_array[], const int start_array[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_delete_attr(MPI_Datatype type, int type_keyval);
IMPI_API int PMPI_Type_dup(MPI_Datatype type, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
IMPI_API MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype);
IMPI_API int PMPI_Type_free(MPI_Datatype *type);
IMPI_API int PMPI_Type_free_keyval(int *type_keyval);
IMPI_API int PMPI_Type_get_attr(MPI_Datatype type, int type_keyval, void *attribute_val, int *flag);
IMPI_API int PMPI_Type_get_contents(MPI_Datatype mtype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]);
IMPI_API int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses, MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]);
IMPI_API int PMPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner);
IMPI_API int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses, MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner);
IMPI_API int PMPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
IMPI_API int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
IMPI_API int PMPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
IMPI_API int PMPI_Type_get_name(MPI_Datatype type, char *type_name, int *resultlen);
IMPI_API int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent);
IMPI_API int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent);
IMPI_API int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent);
IMPI_API int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type);
IMPI_API int PMPI_Type_hindexed(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
IMPI_API int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *type);
IMPI_API int PMPI_Type_set_attr(MPI_Datatype type, int type_keyval, void *attr_val);
IMPI_API int PMPI_Type_set_name(MPI_Datatype type, const char *type_name);
IMPI_API int PMPI_Type_size(MPI_Datatype type, int *size);
IMPI_API int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size);
IMPI_API int PMPI_Type_size_x(MPI_Datatype type, MPI_Count *size);
IMPI_API int PMPI_Type_struct(int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements, MPI_Datatype *array_of_types, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
IMPI_API int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
IMPI_API int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype, MPI_Comm comm);
IMPI_API int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm);
IMPI_API int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype);
IMPI_API int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype);
IMPI_API int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name);
IMPI_API int PMPI_Wait(MPI_Request *request, MPI_Status *status);
IMPI_API int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses);
IMPI_API int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status);
IMPI_API int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]);
IMPI_API int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
IMPI_API int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
IMPI_API MPI_Fint PMPI_Win_c2f(MPI_Win win);
IMPI_API int PMPI_Win_call_errhandler(MPI_Win win, int errorcode);
IMPI_API int PMPI_Win_complete(MPI_Win win);
IMPI_API int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
IMPI_API int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
IMPI_API int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
IMPI_API int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler);
IMPI_API int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state);
IMPI_API int PMPI_Win_delete_attr(MPI_Win win, int win_keyval);
IMPI_API int PMPI_Win_detach(MPI_Win win, const void *base);
IMPI_API MPI_Win PMPI_Win_f2c(MPI_Fint win);
IMPI_API int PMPI_Win_fence(int assert, MPI_Win win);
IMPI_API int PMPI_Win_flush(int rank, MPI_Win win);
IMPI_API int PMPI_Win_flush_all(MPI_Win win);
IMPI_API int PMPI_Win_flush_local(int rank, MPI_Win win);
IMPI_API int PMPI_Win_flush_local_all(MPI_Win win);
IMPI_API int PMPI_Win_free(MPI_Win *win);
IMPI_API int PMPI_Win_free_keyval(int *win_keyval);
IMPI_API int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag);
IMPI_API int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
IMPI_API int PMPI_Win_get_group(MPI_Win win, MPI_Group *group);
IMPI_API int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used);
IMPI_API int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen);
IMPI_API int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
IMPI_API int PMPI_Win_lock_all(int assert, MPI_Win win);
IMPI_API int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win);
IMPI_API int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
IMPI_API int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
IMPI_API int PMPI_Win_set_info(MPI_Win win, MPI_Info info);
IMPI_API int PMPI_Win_set_name(MPI_Win win, const char *win_name);
IMPI_API int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr);
IMPI_API int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr);
IMPI_API int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win);
IMPI_API int PMPI_Win_sync(MPI_Win win);
IMPI_API int PMPI_Win_test(MPI_Win win, int *flag);
IMPI_API int PMPI_Win_unlock(int rank, MPI_Win win);
IMPI_API int PMPI_Win_unlock_all(MPI_Win win);
IMPI_API int PMPI_Win_wait(MPI_Win win);
IMPI_API double PMPI_Wtick(void);
IMPI_API double PMPI_Wtime(void);
/* END GENERATED PROTOTYPES */
/* clang-format on */

#if defined(__cplusplus)
}
#endif

#endif /* IMPI_MPI_H */
