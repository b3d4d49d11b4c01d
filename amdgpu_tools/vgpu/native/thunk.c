/*
 * libhsakmt.so.1 of the virtual GPU: the kernel driver (KFD) and its thunk,
 * as the ROCm runtime (ROCr) sees them, for one emulated GCN GPU.
 *
 * ROCr reaches the driver only through the 42 hsaKmt* functions it imports
 * (symbol version HSAKMT_1). This library answers them in user space:
 *
 *   topology   a CPU node 0 and a GPU node 1 whose properties come from
 *              amdgpu_tools.vgpu.driver.start() (one source for ISA facts);
 *   memory     anonymous mmap: the GPU virtual address of an allocation is its
 *              host address, so the executor works on the bytes the program
 *              sees; registered host memory is used in place;
 *   events     KFD events as mutex/condition pairs with the event mailbox
 *              page the runtime's interrupt signals point at;
 *   queues     AQL and SDMA queues the runtime allocates itself; each gets a
 *              doorbell slot the command processor thread watches.
 *
 * The command processor is a thread of this library that polls doorbells
 * and calls amdgpu_tools.vgpu.driver.poll() (embedded Python, the project's
 * one packet processor and executor) when there is work. Program threads
 * never take Python's GIL: the memory and queue changes they make are logged
 * here and the command processor applies them before it looks at packets.
 */
#define _GNU_SOURCE
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <hsakmt.h>

#define EXPORT __attribute__((visibility("default")))
#define PAGE 4096ull

#define CPU_NODE 0
#define GPU_NODE 1
#define MAX_EVENTS 4096
#define MAX_QUEUES 128

/* ------------------------------------------------------------ the GPU's facts */

/* Filled once from amdgpu_tools.vgpu.driver.start(). */
static struct {
    unsigned major, minor, stepping;
    int xnack, sramecc;
    unsigned compute_units, simds_per_cu, waves_per_simd, lds_kb;
    unsigned device_id, engine_clock_mhz, sdma_engines;
    uint64_t memory_bytes, lds_base, scratch_base, scratch_bytes;
    char name[64];
    char marketing_name[64];
} gpu;

static int kfd_open_count;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* --------------------------------------------------------------- the change log */

/* One memory or queue change, in the layout the Python side reads with ctypes. */
struct vgpu_record {
    uint64_t op;
    uint64_t a, b, c, d, e, f;
};

enum { OP_MAP = 1, OP_UNMAP = 2, OP_AQL_QUEUE = 3, OP_SDMA_QUEUE = 4, OP_DESTROY_QUEUE = 5 };

static struct vgpu_record *log_records;
static size_t log_count, log_capacity;

static void log_change(uint64_t op, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
                       uint64_t f)
{
    /* called with g_lock held */
    if (log_count == log_capacity) {
        size_t grown = log_capacity ? 2 * log_capacity : 256;
        struct vgpu_record *bigger = realloc(log_records, grown * sizeof *bigger);
        if (!bigger) {
            fprintf(stderr, "amdgpu-run: out of host memory for the driver log\n");
            abort();
        }
        log_records = bigger;
        log_capacity = grown;
    }
    log_records[log_count++] = (struct vgpu_record){op, a, b, c, d, e, f};
}

/* ------------------------------------------------------------------- mappings */

/*
 * Device memory is mapped at its host address. Registered host memory gets a
 * GPU address of its own once mapped to the GPU (an alias range reserved
 * here, whose bytes are the host's), as the KFD gives user pointers: HIP 5.2
 * keeps host and device pointers of registered memory in one map and cannot
 * tell them apart when they are equal.
 */
struct mapping {
    uint64_t address, size;
    int owned;              /* mmap'ed here (munmapped when freed) */
    int registered;         /* host memory registered by the program */
    HsaMemFlags flags;
    uint32_t node;
    void *user_data;
    uint64_t alias;         /* registered memory's GPU address, 0 until mapped */
    uint64_t alias_reserve, alias_reserve_size;     /* the reserved range holding it */
};

static int in_range(uint64_t address, uint64_t base, uint64_t size)
{
    return base <= address && address < base + size;
}

static struct mapping *mappings;
static size_t mapping_count, mapping_capacity;

/* The mapping holding `address`, as a host address or as its GPU alias. */
static struct mapping *mapping_containing(uint64_t address)
{
    for (size_t i = 0; i < mapping_count; i++)
        if (in_range(address, mappings[i].address, mappings[i].size) ||
            (mappings[i].alias && in_range(address, mappings[i].alias, mappings[i].size)))
            return &mappings[i];
    return NULL;
}

static int add_mapping(struct mapping m)
{
    if (mapping_count == mapping_capacity) {
        size_t grown = mapping_capacity ? 2 * mapping_capacity : 256;
        struct mapping *bigger = realloc(mappings, grown * sizeof *bigger);
        if (!bigger)
            return -1;
        mappings = bigger;
        mapping_capacity = grown;
    }
    mappings[mapping_count++] = m;
    log_change(OP_MAP, m.address, m.size, m.registered, m.address, 0, 0);
    return 0;
}

/* Forget a mapping. The command processor unmaps what it may still use
 * (OP_UNMAP: address, bytes to release, release?, release base) once it has
 * forgotten it; with no command processor running that happens here. */
static void remove_mapping(struct mapping *m, int release_now)
{
    struct mapping gone = *m;
    *m = mappings[--mapping_count];
    if (release_now) {
        if (gone.owned)
            munmap((void *)gone.address, gone.size);
        if (gone.alias)
            munmap((void *)gone.alias_reserve, gone.alias_reserve_size);
        return;
    }
    log_change(OP_UNMAP, gone.address, gone.size, gone.owned, gone.address, 0, 0);
    if (gone.alias)
        log_change(OP_UNMAP, gone.alias, gone.alias_reserve_size, 1, gone.alias_reserve, 0, 0);
}

/* --------------------------------------------------------------------- events */

/*
 * KFD event semantics: setting an event wakes every thread waiting on it at
 * that moment (each is "activated"); an auto-reset event stays signaled only
 * when nobody was waiting, for the next waiter to consume. ROCr relies on it:
 * its async-handler thread and the thread waiting on a signal may wait on
 * the same event, and both must wake.
 */
struct kfd_event {
    HsaEvent event;         /* first: the runtime holds HsaEvent pointers */
    int in_use, manual_reset, signaled;
    int waiters;            /* threads inside a wait on this event */
    uint64_t sets;          /* times set: a waiter that saw it change was activated */
};

static struct kfd_event *events[MAX_EVENTS];     /* index = event id */
/* One 64-bit slot per event id, all ones while unsignaled: a signal's
 * event_mailbox_ptr points at its slot, and whoever signals it (the command
 * processor, a kernel's s_sendmsg, an SDMA trap) writes the id there and
 * raises an interrupt, which signals every event whose slot was written. */
static uint64_t *event_mailboxes;
#define UNSIGNALED_SLOT (~0ull)
static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t event_cond;

static void signal_event_locked(struct kfd_event *e)
{
    e->sets++;
    if (e->manual_reset || e->waiters == 0)
        e->signaled = 1;
    pthread_cond_broadcast(&event_cond);
}

/* ---------------------------------------------------------------------- queues */

struct kfd_queue {
    int in_use;
    volatile uint64_t *doorbell;
    uint64_t last_doorbell;
    /* the queue's read and write pointers (AQL: amd_queue_t's dispatch ids;
     * SDMA: the thunk's own), so packets left waiting are seen too */
    volatile uint64_t *read_pointer, *write_pointer;
};

static struct kfd_queue queues[MAX_QUEUES];
static uint64_t *doorbell_page;     /* MAX_QUEUES 64-bit doorbells */
/* The read and write pointers of SDMA queues (the thunk owns them; AQL
 * queues use the runtime's amd_queue_t fields instead). */
static uint64_t *queue_pointers;

/* ---------------------------------------------------------- command processor */

static pthread_t cp_thread;
static int cp_running, cp_stop;
/* After a fatal GPU error: end the program once the GPU has been idle this
 * long (a program waiting for a dispatch that will never complete would
 * otherwise hang); 0 = never. */
static uint64_t exit_when_idle_ns;
static PyObject *driver_poll;       /* amdgpu_tools.vgpu.driver.poll */

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void pause_ns(uint64_t ns)
{
    struct timespec t = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    nanosleep(&t, NULL);
}

enum { IDLE, WAITING, ARRIVED };

/* ARRIVED when a doorbell was rung or the log has changes to apply; WAITING
 * when some queue still holds packets (a barrier waiting for its signals, a
 * header not yet written); else IDLE. */
static int work_arrived(void)
{
    int work = IDLE;
    pthread_mutex_lock(&g_lock);
    if (log_count)
        work = ARRIVED;
    for (int i = 0; i < MAX_QUEUES; i++) {
        if (!queues[i].in_use)
            continue;
        uint64_t value = *queues[i].doorbell;
        if (value != queues[i].last_doorbell) {
            queues[i].last_doorbell = value;
            work = ARRIVED;
        } else if (work == IDLE && *queues[i].read_pointer != *queues[i].write_pointer) {
            work = WAITING;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return work;
}

/* Run one driver poll; returns 1 while some queue still has packets waiting. */
static int poll_driver(void)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    int pending = 0;
    PyObject *result = PyObject_CallNoArgs(driver_poll);
    if (result) {
        pending = PyObject_IsTrue(result) == 1;
        Py_DECREF(result);
    } else {
        fprintf(stderr, "amdgpu-run: internal error in the command processor:\n");
        PyErr_Print();
    }
    PyGILState_Release(gil);
    return pending;
}

/* Re-poll intervals: while the driver says packets wait (a barrier's
 * signals, a header not yet written), and while only the queue pointers say
 * so (a queue stopped by an error keeps its failed packet: the driver knows
 * it is dead, this is just a slow check that no doorbell was missed). */
#define PENDING_POLL_NS 200000ull
#define WAITING_POLL_NS 10000000ull

/*
 * The command processor: polls doorbells, quickly right after work (a
 * program that launched one kernel usually launches the next soon), more
 * slowly the longer the GPU stays idle, so an idle GPU costs little CPU.
 * Only new work (a doorbell, a mapping, a queue) counts as activity for the
 * back-off and for ending a program left waiting after a fatal error.
 */
static void *command_processor(void *unused)
{
    (void)unused;
    uint64_t last_work = now_ns(), last_poll = 0;
    int pending = 0;
    while (!__atomic_load_n(&cp_stop, __ATOMIC_ACQUIRE)) {
        uint64_t now = now_ns();
        int work = work_arrived();
        uint64_t since_poll = now - last_poll;
        if (work == ARRIVED || (pending && since_poll > PENDING_POLL_NS) ||
            (work == WAITING && since_poll > WAITING_POLL_NS)) {
            pending = poll_driver();
            last_poll = now_ns();
            if (work == ARRIVED)
                last_work = last_poll;
            continue;
        }
        uint64_t idle = now - last_work;
        uint64_t grace = __atomic_load_n(&exit_when_idle_ns, __ATOMIC_ACQUIRE);
        if (grace && idle > grace) {
            fprintf(stderr, "amdgpu-run: the GPU stopped on an error and the program has waited "
                            "%.1f s since; ending it (exit status 1)\n", (double)idle / 1e9);
            _exit(1);
        }
        pause_ns(idle < 5000000ull ? 10000ull : idle < 200000000ull ? 100000ull : 1000000ull);
    }
    return NULL;
}

/* ------------------------------------------------------------ embedded Python */

static int python_owned;

static void print_python_error(const char *what)
{
    fprintf(stderr, "amdgpu-run: %s\n", what);
    if (PyErr_Occurred())
        PyErr_Print();
}

static int start_python(void)
{
    if (Py_IsInitialized())
        return 0;
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0;
    config.parse_argv = 0;
    /* The interpreter that launched the program (a virtual environment's
     * python finds its pyvenv.cfg and site-packages from there) */
    const char *python = getenv("AMDGPU_VGPU_PYTHON");
    if (python && *python)
        PyConfig_SetBytesString(&config, &config.executable, python);
    PyStatus status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) {
        fprintf(stderr, "amdgpu-run: cannot start Python for the virtual GPU: %s\n",
                status.err_msg ? status.err_msg : "unknown error");
        return -1;
    }
    /* The launching interpreter's path first, each entry as a site directory:
     * a virtual environment's site-packages and the .pth files of an editable
     * install in it (the base interpreter started here knows neither). */
    PyRun_SimpleString(
        "import os, site, sys\n"
        "before = list(sys.path)\n"
        "for path in os.environ.get('AMDGPU_VGPU_PYTHONPATH', '').split(os.pathsep):\n"
        "    if path and path not in sys.path:\n"
        "        site.addsitedir(path)\n"
        "sys.path[:] = [p for p in sys.path if p not in before] + before\n"
        "del before\n");
    python_owned = 1;
    PyEval_SaveThread();      /* the GIL is taken per call from now on */
    return 0;
}

static uint64_t dict_u64(PyObject *dict, const char *key)
{
    PyObject *value = PyDict_GetItemString(dict, key);
    return value ? PyLong_AsUnsignedLongLong(value) : 0;
}

static void dict_str(PyObject *dict, const char *key, char *out, size_t size)
{
    PyObject *value = PyDict_GetItemString(dict, key);
    const char *text = value ? PyUnicode_AsUTF8(value) : NULL;
    snprintf(out, size, "%s", text ? text : "");
}

/* Import the driver, read the GPU's facts and keep driver.poll. */
static int open_driver(void)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    int ok = -1;
    PyObject *module = PyImport_ImportModule("amdgpu_tools.vgpu.driver");
    PyObject *facts = module ? PyObject_CallMethod(module, "start", NULL) : NULL;
    if (facts && PyDict_Check(facts)) {
        gpu.major = dict_u64(facts, "major");
        gpu.minor = dict_u64(facts, "minor");
        gpu.stepping = dict_u64(facts, "stepping");
        gpu.xnack = dict_u64(facts, "xnack");
        gpu.sramecc = dict_u64(facts, "sramecc");
        gpu.compute_units = dict_u64(facts, "compute_units");
        gpu.simds_per_cu = dict_u64(facts, "simds_per_cu");
        gpu.waves_per_simd = dict_u64(facts, "waves_per_simd");
        gpu.lds_kb = dict_u64(facts, "lds_kb");
        gpu.device_id = dict_u64(facts, "device_id");
        gpu.engine_clock_mhz = dict_u64(facts, "engine_clock_mhz");
        gpu.sdma_engines = dict_u64(facts, "sdma_engines");
        gpu.memory_bytes = dict_u64(facts, "memory_bytes");
        gpu.lds_base = dict_u64(facts, "lds_base");
        gpu.scratch_base = dict_u64(facts, "scratch_base");
        gpu.scratch_bytes = dict_u64(facts, "scratch_bytes");
        dict_str(facts, "name", gpu.name, sizeof gpu.name);
        dict_str(facts, "marketing_name", gpu.marketing_name, sizeof gpu.marketing_name);
        driver_poll = PyObject_GetAttrString(module, "poll");
        ok = (driver_poll && !PyErr_Occurred()) ? 0 : -1;
    }
    if (ok != 0)
        print_python_error("the virtual GPU's driver did not start");
    Py_XDECREF(facts);
    Py_XDECREF(module);
    PyGILState_Release(gil);
    return ok;
}

/* ------------------------------------------------------------- open and close */

EXPORT HSAKMT_STATUS hsaKmtOpenKFD(void)
{
    pthread_mutex_lock(&g_lock);
    if (kfd_open_count++) {
        pthread_mutex_unlock(&g_lock);
        return HSAKMT_STATUS_SUCCESS;
    }
    pthread_mutex_unlock(&g_lock);

    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&event_cond, &attr);

    event_mailboxes = mmap(NULL, MAX_EVENTS * 8, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    doorbell_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    queue_pointers = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (event_mailboxes != MAP_FAILED)
        memset(event_mailboxes, 0xFF, MAX_EVENTS * 8);
    if (event_mailboxes == MAP_FAILED || doorbell_page == MAP_FAILED ||
        queue_pointers == MAP_FAILED || start_python() != 0 ||
        open_driver() != 0) {
        kfd_open_count = 0;
        return HSAKMT_STATUS_ERROR;
    }
    pthread_mutex_lock(&g_lock);
    struct mapping mailbox = {.address = (uint64_t)event_mailboxes, .size = MAX_EVENTS * 8};
    struct mapping pointers = {.address = (uint64_t)queue_pointers, .size = PAGE};
    add_mapping(mailbox);
    add_mapping(pointers);
    pthread_mutex_unlock(&g_lock);

    cp_stop = 0;
    if (pthread_create(&cp_thread, NULL, command_processor, NULL) != 0) {
        fprintf(stderr, "amdgpu-run: cannot start the command processor thread\n");
        return HSAKMT_STATUS_ERROR;
    }
    cp_running = 1;
    return HSAKMT_STATUS_SUCCESS;
}

/* How long CloseKFD waits for a kernel still running (then the process's
 * exit ends the thread; memory the runtime frees meanwhile stays mapped). */
#define CLOSE_WAIT_SECONDS 2

EXPORT HSAKMT_STATUS hsaKmtCloseKFD(void)
{
    pthread_mutex_lock(&g_lock);
    int last = kfd_open_count > 0 && --kfd_open_count == 0;
    pthread_mutex_unlock(&g_lock);
    if (!last || !cp_running)
        return HSAKMT_STATUS_SUCCESS;
    __atomic_store_n(&cp_stop, 1, __ATOMIC_RELEASE);
    /* a Python host program may hold the GIL the command processor waits for */
    int holds_gil = Py_IsInitialized() && PyGILState_Check();
    PyThreadState *saved = holds_gil ? PyEval_SaveThread() : NULL;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += CLOSE_WAIT_SECONDS;
    if (pthread_timedjoin_np(cp_thread, NULL, &deadline) == 0)
        cp_running = 0;
    if (saved)
        PyEval_RestoreThread(saved);
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtGetVersion(HsaVersionInfo *version)
{
    version->KernelInterfaceMajorVersion = 1;
    version->KernelInterfaceMinorVersion = 8;
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtRuntimeEnable(void *r_debug, bool setup_ttmp)
{
    (void)r_debug;
    (void)setup_ttmp;
    return HSAKMT_STATUS_NOT_SUPPORTED;     /* no debugger: no exception-debugging interface */
}

EXPORT HSAKMT_STATUS hsaKmtRuntimeDisable(void) { return HSAKMT_STATUS_SUCCESS; }

/* ------------------------------------------------------------------- topology */

EXPORT HSAKMT_STATUS hsaKmtAcquireSystemProperties(HsaSystemProperties *props)
{
    memset(props, 0, sizeof *props);
    props->NumNodes = 2;
    props->PlatformOem = 0x414d44;      /* "AMD" */
    props->PlatformId = 1;
    props->PlatformRev = 1;
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtReleaseSystemProperties(void) { return HSAKMT_STATUS_SUCCESS; }

static void set_utf16(HSAuint16 *out, const char *text)
{
    size_t i = 0;
    for (; text[i] && i < HSA_PUBLIC_NAME_SIZE - 1; i++)
        out[i] = (unsigned char)text[i];
    out[i] = 0;
}

static uint64_t host_memory_bytes(void)
{
    return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

#define GPU_PROCESSOR_ID 0x80000000u

static void cpu_node(HsaNodeProperties *p)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    p->NumCPUCores = cores > 0 ? (HSAuint32)cores : 1;
    p->NumMemoryBanks = 1;
    p->NumCaches = 2;
    p->NumIOLinks = 1;
    p->MaxEngineClockMhzCCompute = 2000;
    set_utf16(p->MarketingName, "Host CPU (amdgpu-tools virtual GPU host)");
    snprintf((char *)p->AMDName, sizeof p->AMDName, "CPU");
}

static void gpu_node(HsaNodeProperties *p)
{
    p->NumFComputeCores = gpu.compute_units * gpu.simds_per_cu;
    p->NumMemoryBanks = 3;
    p->NumCaches = 2;
    p->NumIOLinks = 1;
    p->FComputeIdLo = GPU_PROCESSOR_ID;
    p->Capability.ui32.QueueSizePowerOfTwo = 1;
    p->Capability.ui32.QueueSize32bit = 1;
    p->Capability.ui32.DoorbellType = 2;       /* the write pointer has AQL semantics */
    p->Capability.ui32.SRAM_EDCSupport = gpu.sramecc ? 1 : 0;
    p->MaxWavesPerSIMD = gpu.waves_per_simd;
    p->LDSSizeInKB = gpu.lds_kb;
    p->GDSSizeInKB = 64;
    p->WaveFrontSize = 64;
    p->NumShaderBanks = 1;
    p->NumArrays = 1;
    p->NumCUPerArray = gpu.compute_units;
    p->NumSIMDPerCU = gpu.simds_per_cu;
    p->MaxSlotsScratchCU = 32;
    p->EngineId.ui32.uCode = 800;
    p->EngineId.ui32.Major = gpu.major;
    p->EngineId.ui32.Minor = gpu.minor;
    p->EngineId.ui32.Stepping = gpu.stepping;
    p->VendorId = 0x1002;
    p->DeviceId = (HSAuint16)gpu.device_id;
    p->LocationId = 0x0300;
    p->LocalMemSize = gpu.memory_bytes;
    p->MaxEngineClockMhzFCompute = gpu.engine_clock_mhz;
    p->MaxEngineClockMhzCCompute = 2000;
    p->DrmRenderMinor = 128;
    set_utf16(p->MarketingName, gpu.marketing_name);
    snprintf((char *)p->AMDName, sizeof p->AMDName, "%s", gpu.name);
    p->uCodeEngineVersions.uCodeSDMA = 400;
    p->NumSdmaEngines = gpu.sdma_engines;
    p->NumSdmaQueuesPerEngine = 8;
    p->NumCpQueues = 24;
    p->NumGws = 64;
    p->UniqueID = 0x616d646770757473ull;      /* "amdgputs" */
    p->VGPRSizePerCU = gpu.simds_per_cu * 256 * 64 * 4;
    p->SGPRSizePerCU = gpu.simds_per_cu * 800 * 4;
}

EXPORT HSAKMT_STATUS hsaKmtGetNodeProperties(HSAuint32 node, HsaNodeProperties *props)
{
    if (node > GPU_NODE)
        return HSAKMT_STATUS_INVALID_NODE_UNIT;
    memset(props, 0, sizeof *props);
    if (node == CPU_NODE)
        cpu_node(props);
    else
        gpu_node(props);
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtGetNodeMemoryProperties(HSAuint32 node, HSAuint32 count,
                                                   HsaMemoryProperties *props)
{
    if (node > GPU_NODE)
        return HSAKMT_STATUS_INVALID_NODE_UNIT;
    memset(props, 0, count * sizeof *props);
    if (node == CPU_NODE) {
        if (count >= 1) {
            props[0].HeapType = HSA_HEAPTYPE_SYSTEM;
            props[0].SizeInBytes = host_memory_bytes();
            props[0].Width = 64;
        }
        return HSAKMT_STATUS_SUCCESS;
    }
    HsaMemoryProperties banks[3] = {
        {.HeapType = HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC, .SizeInBytes = gpu.memory_bytes,
         .Width = 2048, .MemoryClockMax = 1000},
        {.HeapType = HSA_HEAPTYPE_GPU_LDS, .SizeInBytes = (uint64_t)gpu.lds_kb << 10,
         .VirtualBaseAddress = gpu.lds_base},
        {.HeapType = HSA_HEAPTYPE_GPU_SCRATCH, .SizeInBytes = gpu.scratch_bytes,
         .VirtualBaseAddress = gpu.scratch_base},
    };
    for (HSAuint32 i = 0; i < count && i < 3; i++)
        props[i] = banks[i];
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtGetNodeCacheProperties(HSAuint32 node, HSAuint32 processor,
                                                  HSAuint32 count, HsaCacheProperties *props)
{
    (void)processor;
    if (node > GPU_NODE)
        return HSAKMT_STATUS_INVALID_NODE_UNIT;
    memset(props, 0, count * sizeof *props);
    /* sizes in KiB, as the KFD reports them: the GPU's 16 KiB L1 per CU and
     * 4 MiB L2; a typical host's 32 KiB L1 and 1 MiB L2 */
    const HSAuint32 levels[2] = {1, 2};
    const HSAuint32 sizes[2][2] = {{32, 1024}, {16, 4096}};
    for (HSAuint32 i = 0; i < count && i < 2; i++) {
        props[i].ProcessorIdLow = node == CPU_NODE ? 0 : GPU_PROCESSOR_ID;
        props[i].CacheLevel = levels[i];
        props[i].CacheSize = sizes[node][i];
        props[i].CacheLineSize = 64;
        props[i].CacheLinesPerTag = 1;
        props[i].CacheAssociativity = 16;
        props[i].CacheType.ui32.Data = 1;
        props[i].CacheType.ui32.CPU = node == CPU_NODE;
        props[i].CacheType.ui32.HSACU = node == GPU_NODE;
        if (node == CPU_NODE)
            props[i].SiblingMap[0] = 1;
    }
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtGetNodeIoLinkProperties(HSAuint32 node, HSAuint32 count,
                                                   HsaIoLinkProperties *links)
{
    if (node > GPU_NODE)
        return HSAKMT_STATUS_INVALID_NODE_UNIT;
    memset(links, 0, count * sizeof *links);
    if (count >= 1) {
        links[0].IoLinkType = HSA_IOLINKTYPE_PCIEXPRESS;
        links[0].NodeFrom = node;
        links[0].NodeTo = node == CPU_NODE ? GPU_NODE : CPU_NODE;
        links[0].Weight = 20;
        links[0].MinimumBandwidth = 16000;
        links[0].MaximumBandwidth = 16000;
    }
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtGetXNACKMode(HSAint32 *enable)
{
    *enable = gpu.xnack;
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtSetXNACKMode(HSAint32 enable)
{
    /* the mode is the one --mcpu chose: the target id decides which code objects run */
    return (!!enable == !!gpu.xnack) ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_NOT_SUPPORTED;
}

EXPORT HSAKMT_STATUS hsaKmtGetTileConfig(HSAuint32 node, HsaGpuTileConfig *config)
{
    /* Images are not modelled, but ROCr's image layer sets up its address
     * library from these at start-up: linear tiling everywhere and a
     * GB_ADDR_CONFIG of a board of the generation (Fiji, Vega 10). */
    if (node != GPU_NODE)
        return HSAKMT_STATUS_INVALID_NODE_UNIT;
    /* the GFX7/8 tables' sizes (GB_TILE_MODE0-31, GB_MACROTILE_MODE0-15) */
    if (config->NumTileConfigs > 32)
        config->NumTileConfigs = 32;
    if (config->NumMacroTileConfigs > 16)
        config->NumMacroTileConfigs = 16;
    for (HSAuint32 i = 0; i < config->NumTileConfigs; i++)
        config->TileConfig[i] = 1u << 2;    /* ARRAY_MODE (bits 5:2) = LINEAR_ALIGNED */
    for (HSAuint32 i = 0; i < config->NumMacroTileConfigs; i++)
        config->MacroTileConfig[i] = 0;
    config->GbAddrConfig = gpu.major >= 9 ? 0x2a114042u : 0x22011003u;
    config->NumBanks = 2;     /* encoded as GB_ADDR_CONFIG's fields: 16 banks */
    config->NumRanks = 0;     /* 1 rank */
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtGetClockCounters(HSAuint32 node, HsaClockCounters *counters)
{
    (void)node;
    /* one nanosecond clock for the GPU, the CPU and the system: the packet
     * processor's timestamps (amd_signal_t start_ts/end_ts) use it too */
    uint64_t now = now_ns();
    counters->GPUClockCounter = now;
    counters->CPUClockCounter = now;
    counters->SystemClockCounter = now;
    counters->SystemClockFrequencyHz = 1000000000ull;
    return HSAKMT_STATUS_SUCCESS;
}

/* --------------------------------------------------------------------- memory */

EXPORT HSAKMT_STATUS hsaKmtAllocMemory(HSAuint32 node, HSAuint64 size, HsaMemFlags flags,
                                       void **address)
{
    if (flags.ui32.GDSMemory)
        return HSAKMT_STATUS_NO_MEMORY;     /* GDS is the executor's own, per device */
    if (size == 0)
        return HSAKMT_STATUS_INVALID_PARAMETER;
    uint64_t bytes = (size + PAGE - 1) & ~(PAGE - 1);
    if (node == GPU_NODE && !flags.ui32.Scratch && bytes > gpu.memory_bytes)
        return HSAKMT_STATUS_NO_MEMORY;
    int fixed = flags.ui32.FixedAddress && *address;
    void *where = mmap(fixed ? *address : NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                           (fixed ? MAP_FIXED_NOREPLACE : 0),
                       -1, 0);
    if (where == MAP_FAILED)
        return HSAKMT_STATUS_NO_MEMORY;
    pthread_mutex_lock(&g_lock);
    struct mapping m = {(uint64_t)where, bytes, 1, 0, flags, node, NULL};
    int failed = flags.ui32.Scratch ? 0 : add_mapping(m);   /* scratch: the executor's own */
    pthread_mutex_unlock(&g_lock);
    if (failed) {
        munmap(where, bytes);
        return HSAKMT_STATUS_NO_MEMORY;
    }
    *address = where;
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtFreeMemory(void *address, HSAuint64 size)
{
    pthread_mutex_lock(&g_lock);
    struct mapping *m = mapping_containing((uint64_t)address);
    if (!m || m->address != (uint64_t)address || m->registered) {
        pthread_mutex_unlock(&g_lock);
        if (!m) /* scratch (never logged) is unmapped here */
            munmap(address, (size + PAGE - 1) & ~(PAGE - 1));
        return m ? HSAKMT_STATUS_INVALID_PARAMETER : HSAKMT_STATUS_SUCCESS;
    }
    /* while the command processor runs, it unmaps after forgetting the range */
    remove_mapping(m, !cp_running);
    pthread_mutex_unlock(&g_lock);
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtRegisterMemoryWithFlags(void *address, HSAuint64 size,
                                                   HsaMemFlags flags)
{
    pthread_mutex_lock(&g_lock);
    struct mapping *inside = mapping_containing((uint64_t)address);
    int status = 0;
    if (!inside || inside->address + inside->size < (uint64_t)address + size) {
        struct mapping m = {(uint64_t)address, size, 0, 1, flags, CPU_NODE, NULL};
        status = add_mapping(m);
    }
    pthread_mutex_unlock(&g_lock);
    return status ? HSAKMT_STATUS_NO_MEMORY : HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtDeregisterMemory(void *address)
{
    pthread_mutex_lock(&g_lock);
    struct mapping *m = mapping_containing((uint64_t)address);
    if (m && m->registered && m->address == (uint64_t)address)
        remove_mapping(m, !cp_running);
    pthread_mutex_unlock(&g_lock);
    return HSAKMT_STATUS_SUCCESS;
}

/* Give registered memory its GPU alias: a reserved range, mapped by the
 * command processor onto the host bytes (same offset within a page). */
static int map_alias(struct mapping *m)
{
    uint64_t offset = m->address % PAGE;
    uint64_t bytes = (offset + m->size + PAGE - 1) & ~(PAGE - 1);
    void *reserve = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                         -1, 0);
    if (reserve == MAP_FAILED)
        return -1;
    m->alias_reserve = (uint64_t)reserve;
    m->alias_reserve_size = bytes;
    m->alias = (uint64_t)reserve + offset;
    log_change(OP_MAP, m->alias, m->size, 1, m->address, 0, 0);
    return 0;
}

EXPORT HSAKMT_STATUS hsaKmtMapMemoryToGPU(void *address, HSAuint64 size, HSAuint64 *alternate)
{
    (void)size;
    uint64_t host = (uint64_t)address, gpu_address = host;     /* device memory: GPU VA == host VA */
    pthread_mutex_lock(&g_lock);
    struct mapping *m = mapping_containing(host);
    int failed = 0;
    if (m && m->registered && in_range(host, m->address, m->size)) {
        if (!m->alias)
            failed = map_alias(m);
        gpu_address = m->alias + (host - m->address);
    }
    pthread_mutex_unlock(&g_lock);
    if (failed)
        return HSAKMT_STATUS_NO_MEMORY;
    if (alternate)
        *alternate = gpu_address;
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtMapMemoryToGPUNodes(void *address, HSAuint64 size,
                                               HSAuint64 *alternate, HsaMemMapFlags flags,
                                               HSAuint64 node_count, HSAuint32 *nodes)
{
    (void)flags;
    (void)node_count;
    (void)nodes;
    return hsaKmtMapMemoryToGPU(address, size, alternate);
}

EXPORT HSAKMT_STATUS hsaKmtUnmapMemoryToGPU(void *address)
{
    (void)address;
    return HSAKMT_STATUS_SUCCESS;
}

static const HSAuint32 gpu_node_list[1] = {GPU_NODE};

EXPORT HSAKMT_STATUS hsaKmtQueryPointerInfo(const void *pointer, HsaPointerInfo *info)
{
    memset(info, 0, sizeof *info);
    pthread_mutex_lock(&g_lock);
    struct mapping *m = mapping_containing((uint64_t)pointer);
    if (m) {
        info->Type = m->registered ? HSA_POINTER_REGISTERED_USER : HSA_POINTER_ALLOCATED;
        info->Node = m->node;
        info->MemFlags = m->flags;
        info->CPUAddress = (void *)m->address;
        info->GPUAddress = m->alias ? m->alias : m->address;
        info->SizeInBytes = m->size;
        info->NRegisteredNodes = 1;
        info->NMappedNodes = 1;
        info->RegisteredNodes = gpu_node_list;
        info->MappedNodes = gpu_node_list;
        info->UserData = m->user_data;
    }
    pthread_mutex_unlock(&g_lock);
    return m ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR;
}

EXPORT HSAKMT_STATUS hsaKmtSetMemoryUserData(const void *pointer, void *user_data)
{
    pthread_mutex_lock(&g_lock);
    struct mapping *m = mapping_containing((uint64_t)pointer);
    if (m)
        m->user_data = user_data;
    pthread_mutex_unlock(&g_lock);
    return m ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_PARAMETER;
}

EXPORT HSAKMT_STATUS hsaKmtSetMemoryPolicy(HSAuint32 node, HSAuint32 default_policy,
                                           HSAuint32 alternate_policy, void *alternate,
                                           HSAuint64 size)
{
    (void)node;
    (void)default_policy;
    (void)alternate_policy;
    (void)alternate;
    (void)size;
    return HSAKMT_STATUS_SUCCESS;
}

/* Sharing memory with other processes and graphics interop are not modelled. */
EXPORT HSAKMT_STATUS hsaKmtShareMemory(void *address, HSAuint64 size,
                                       HsaSharedMemoryHandle *handle)
{
    (void)address;
    (void)size;
    (void)handle;
    return HSAKMT_STATUS_NOT_SUPPORTED;
}

EXPORT HSAKMT_STATUS hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle *handle,
                                                void **address, HSAuint64 *size)
{
    (void)handle;
    (void)address;
    (void)size;
    return HSAKMT_STATUS_NOT_SUPPORTED;
}

EXPORT HSAKMT_STATUS hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle *handle,
                                                       void **address, HSAuint64 *size,
                                                       HSAuint64 node_count, HSAuint32 *nodes)
{
    (void)node_count;
    (void)nodes;
    return hsaKmtRegisterSharedHandle(handle, address, size);
}

EXPORT HSAKMT_STATUS hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 handle,
                                                         HsaGraphicsResourceInfo *info,
                                                         HSAuint64 node_count, HSAuint32 *nodes)
{
    (void)handle;
    (void)info;
    (void)node_count;
    (void)nodes;
    return HSAKMT_STATUS_NOT_SUPPORTED;
}

EXPORT HSAKMT_STATUS hsaKmtSVMSetAttr(void *start, HSAuint64 size, unsigned int count,
                                      HSA_SVM_ATTRIBUTE *attributes)
{
    (void)start;
    (void)size;
    (void)count;
    (void)attributes;
    return HSAKMT_STATUS_NOT_SUPPORTED;
}

EXPORT HSAKMT_STATUS hsaKmtSVMGetAttr(void *start, HSAuint64 size, unsigned int count,
                                      HSA_SVM_ATTRIBUTE *attributes)
{
    return hsaKmtSVMSetAttr(start, size, count, attributes);
}

/* --------------------------------------------------------------------- events */

EXPORT HSAKMT_STATUS hsaKmtCreateEvent(HsaEventDescriptor *descriptor, bool manual_reset,
                                       bool signaled, HsaEvent **out)
{
    struct kfd_event *e = calloc(1, sizeof *e);
    if (!e)
        return HSAKMT_STATUS_NO_MEMORY;
    pthread_mutex_lock(&event_lock);
    HSAuint32 id = 1;
    while (id < MAX_EVENTS && events[id])
        id++;
    if (id == MAX_EVENTS) {
        pthread_mutex_unlock(&event_lock);
        free(e);
        return HSAKMT_STATUS_OUT_OF_RESOURCES;
    }
    e->in_use = 1;
    e->manual_reset = manual_reset;
    e->signaled = signaled;
    e->event.EventId = id;
    e->event.EventData.EventType = descriptor->EventType;
    e->event.EventData.HWData1 = id;
    e->event.EventData.HWData2 = (HSAuint64)&event_mailboxes[id];
    e->event.EventData.HWData3 = id;
    if (descriptor->EventType == HSA_EVENTTYPE_SIGNAL)
        e->event.EventData.EventData.SyncVar = descriptor->SyncVar;
    event_mailboxes[id] = UNSIGNALED_SLOT;
    events[id] = e;
    pthread_mutex_unlock(&event_lock);
    *out = &e->event;
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtDestroyEvent(HsaEvent *event)
{
    if (!event)
        return HSAKMT_STATUS_INVALID_HANDLE;
    pthread_mutex_lock(&event_lock);
    struct kfd_event *e = (struct kfd_event *)event;
    if (event->EventId < MAX_EVENTS && events[event->EventId] == e)
        events[event->EventId] = NULL;
    pthread_mutex_unlock(&event_lock);
    free(e);
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtSetEvent(HsaEvent *event)
{
    if (!event)
        return HSAKMT_STATUS_INVALID_HANDLE;
    pthread_mutex_lock(&event_lock);
    signal_event_locked((struct kfd_event *)event);
    pthread_mutex_unlock(&event_lock);
    return HSAKMT_STATUS_SUCCESS;
}

/* Is event i of a wait ready: signaled, or set since the wait began? */
static int event_ready(HsaEvent *event, uint64_t sets_at_start)
{
    struct kfd_event *e = (struct kfd_event *)event;
    return e->signaled || e->sets != sets_at_start;
}

static int wait_satisfied(HsaEvent *list[], const uint64_t *start, HSAuint32 count, bool all)
{
    HSAuint32 ready = 0;
    for (HSAuint32 i = 0; i < count; i++)
        ready += event_ready(list[i], start[i]);
    return all ? ready == count : ready > 0;
}

EXPORT HSAKMT_STATUS hsaKmtWaitOnMultipleEvents(HsaEvent *list[], HSAuint32 count, bool all,
                                                HSAuint32 milliseconds)
{
    if (!list || count == 0)
        return HSAKMT_STATUS_INVALID_PARAMETER;
    uint64_t *start = malloc(count * sizeof *start);
    if (!start)
        return HSAKMT_STATUS_NO_MEMORY;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    uint64_t ns = (uint64_t)deadline.tv_nsec + (uint64_t)(milliseconds % 1000) * 1000000ull;
    deadline.tv_sec += milliseconds / 1000 + (time_t)(ns / 1000000000ull);
    deadline.tv_nsec = (long)(ns % 1000000000ull);

    pthread_mutex_lock(&event_lock);
    for (HSAuint32 i = 0; i < count; i++) {
        struct kfd_event *e = (struct kfd_event *)list[i];
        start[i] = e->sets;
        e->waiters++;
    }
    HSAKMT_STATUS status = HSAKMT_STATUS_SUCCESS;
    while (!wait_satisfied(list, start, count, all)) {
        if (milliseconds == 0) {
            status = HSAKMT_STATUS_WAIT_TIMEOUT;
            break;
        }
        int rc = milliseconds == HSA_EVENTTIMEOUT_INFINITE
                     ? pthread_cond_wait(&event_cond, &event_lock)
                     : pthread_cond_timedwait(&event_cond, &event_lock, &deadline);
        if (rc == ETIMEDOUT && !wait_satisfied(list, start, count, all)) {
            status = HSAKMT_STATUS_WAIT_TIMEOUT;
            break;
        }
    }
    for (HSAuint32 i = 0; i < count; i++) {
        struct kfd_event *e = (struct kfd_event *)list[i];
        e->waiters--;
        /* a waiter consumes what it saw of an auto-reset event */
        if (status == HSAKMT_STATUS_SUCCESS && !e->manual_reset && event_ready(list[i], start[i]))
            e->signaled = 0;
    }
    pthread_mutex_unlock(&event_lock);
    free(start);
    return status;
}

EXPORT HSAKMT_STATUS hsaKmtWaitOnEvent(HsaEvent *event, HSAuint32 milliseconds)
{
    return hsaKmtWaitOnMultipleEvents(&event, 1, true, milliseconds);
}

/* --------------------------------------------------------------------- queues */

EXPORT HSAKMT_STATUS hsaKmtCreateQueue(HSAuint32 node, HSA_QUEUE_TYPE type, HSAuint32 percentage,
                                       HSA_QUEUE_PRIORITY priority, void *ring, HSAuint64 ring_bytes,
                                       HsaEvent *event, HsaQueueResource *resource)
{
    (void)percentage;
    (void)priority;
    (void)event;
    if (node != GPU_NODE)
        return HSAKMT_STATUS_INVALID_NODE_UNIT;
    int aql = type == HSA_QUEUE_COMPUTE_AQL;
    if (!aql && type != HSA_QUEUE_SDMA && type != HSA_QUEUE_SDMA_XGMI)
        return HSAKMT_STATUS_NOT_SUPPORTED;
    pthread_mutex_lock(&g_lock);
    int id = 0;
    while (id < MAX_QUEUES && queues[id].in_use)
        id++;
    if (id == MAX_QUEUES) {
        pthread_mutex_unlock(&g_lock);
        return HSAKMT_STATUS_OUT_OF_RESOURCES;
    }
    /* no value a producer writes: its first ring (of index 0) is a change */
    doorbell_page[id] = ~0ull;
    resource->QueueId = (HSA_QUEUEID)id;
    resource->Queue_DoorBell_aql = (HSAuint64 *)&doorbell_page[id];
    if (!aql) {
        queue_pointers[2 * id] = queue_pointers[2 * id + 1] = 0;
        resource->Queue_read_ptr_aql = &queue_pointers[2 * id];
        resource->Queue_write_ptr_aql = &queue_pointers[2 * id + 1];
    }
    queues[id] = (struct kfd_queue){1, &doorbell_page[id], ~0ull, resource->Queue_read_ptr_aql,
                                    resource->Queue_write_ptr_aql};
    log_change(aql ? OP_AQL_QUEUE : OP_SDMA_QUEUE, (uint64_t)id, (uint64_t)ring, ring_bytes,
               resource->QueueRptrValue, resource->QueueWptrValue, (uint64_t)&doorbell_page[id]);
    pthread_mutex_unlock(&g_lock);
    return HSAKMT_STATUS_SUCCESS;
}

EXPORT HSAKMT_STATUS hsaKmtUpdateQueue(HSA_QUEUEID id, HSAuint32 percentage,
                                       HSA_QUEUE_PRIORITY priority, void *ring, HSAuint64 size,
                                       HsaEvent *event)
{
    (void)percentage;
    (void)priority;
    (void)ring;
    (void)size;
    (void)event;
    return id < MAX_QUEUES && queues[id].in_use ? HSAKMT_STATUS_SUCCESS
                                                : HSAKMT_STATUS_INVALID_HANDLE;
}

EXPORT HSAKMT_STATUS hsaKmtDestroyQueue(HSA_QUEUEID id)
{
    pthread_mutex_lock(&g_lock);
    int known = id < MAX_QUEUES && queues[id].in_use;
    if (known) {
        queues[id].in_use = 0;
        log_change(OP_DESTROY_QUEUE, id, 0, 0, 0, 0, 0);
    }
    pthread_mutex_unlock(&g_lock);
    return known ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

EXPORT HSAKMT_STATUS hsaKmtSetQueueCUMask(HSA_QUEUEID id, HSAuint32 count, HSAuint32 *mask)
{
    (void)count;
    (void)mask;
    return hsaKmtUpdateQueue(id, 100, HSA_QUEUE_PRIORITY_NORMAL, NULL, 0, NULL);
}

EXPORT HSAKMT_STATUS hsaKmtAllocQueueGWS(HSA_QUEUEID id, HSAuint32 count, HSAuint32 *first)
{
    (void)count;
    if (first)
        *first = 0;     /* the executor's GWS resources are the device's */
    return hsaKmtUpdateQueue(id, 100, HSA_QUEUE_PRIORITY_NORMAL, NULL, 0, NULL);
}

EXPORT HSAKMT_STATUS hsaKmtSetTrapHandler(HSAuint32 node, void *base, HSAuint64 size,
                                          void *buffer, HSAuint64 buffer_size)
{
    (void)node;
    (void)base;
    (void)size;
    (void)buffer;
    (void)buffer_size;
    return HSAKMT_STATUS_SUCCESS;     /* traps are the executor's: s_trap ends in a queue error */
}

/* -------------------------------------------- called by the Python driver (ctypes) */

/* Move up to `max` logged changes into `out`; returns how many. */
EXPORT int amdgpu_vgpu_drain(struct vgpu_record *out, int max)
{
    pthread_mutex_lock(&g_lock);
    int n = log_count < (size_t)max ? (int)log_count : max;
    memcpy(out, log_records, (size_t)n * sizeof *out);
    memmove(log_records, log_records + n, (log_count - (size_t)n) * sizeof *out);
    log_count -= (size_t)n;
    pthread_mutex_unlock(&g_lock);
    return n;
}

/* A fatal GPU error happened: end the program if it waits `seconds` more. */
EXPORT void amdgpu_vgpu_exit_when_idle(double seconds)
{
    __atomic_store_n(&exit_when_idle_ns, seconds > 0 ? (uint64_t)(seconds * 1e9) : 0,
                     __ATOMIC_RELEASE);
}

/* The command processor no longer uses a freed range: give it back. */
EXPORT void amdgpu_vgpu_release(uint64_t address, uint64_t size)
{
    munmap((void *)address, size);
}

/* The mapping holding `address` (for ranges mapped while a kernel runs):
 * its GPU base address, size, and the host address of its bytes. */
EXPORT int amdgpu_vgpu_lookup(uint64_t address, uint64_t *base, uint64_t *size, uint64_t *host)
{
    pthread_mutex_lock(&g_lock);
    struct mapping *m = mapping_containing(address);
    if (m) {
        int aliased = m->alias && in_range(address, m->alias, m->size);
        *base = aliased ? m->alias : m->address;
        *size = m->size;
        *host = m->address;
    }
    pthread_mutex_unlock(&g_lock);
    return m != NULL;
}

/* An interrupt: event `id` (0: none named) and every event whose mailbox
 * slot was written since the last interrupt are signaled, as the KFD's
 * interrupt handler does for the CP's and the SDMA engines' interrupts. */
EXPORT void amdgpu_vgpu_interrupt(uint32_t id)
{
    pthread_mutex_lock(&event_lock);
    if (id && id < MAX_EVENTS && events[id])
        signal_event_locked(events[id]);
    for (uint32_t slot = 1; slot < MAX_EVENTS; slot++) {
        if (event_mailboxes[slot] == UNSIGNALED_SLOT)
            continue;
        event_mailboxes[slot] = UNSIGNALED_SLOT;
        if (events[slot])
            signal_event_locked(events[slot]);
    }
    pthread_mutex_unlock(&event_lock);
}

/* A GPU memory fault: the runtime's memory events report it (ROCr prints
 * "Memory access fault by GPU node-1 ..." and aborts the process). */
EXPORT int amdgpu_vgpu_memory_fault(uint64_t address, int write_to_read_only)
{
    int told = 0;
    pthread_mutex_lock(&event_lock);
    for (int id = 1; id < MAX_EVENTS; id++) {
        struct kfd_event *e = events[id];
        if (!e || e->event.EventData.EventType != HSA_EVENTTYPE_MEMORY)
            continue;
        HsaMemoryAccessFault *fault = &e->event.EventData.EventData.MemoryAccessFault;
        fault->NodeId = GPU_NODE;
        fault->VirtualAddress = address;
        memset(&fault->Failure, 0, sizeof fault->Failure);
        fault->Failure.NotPresent = !write_to_read_only;
        fault->Failure.ReadOnly = !!write_to_read_only;
        fault->Flags = HSA_EVENTID_MEMORY_FATAL_PROCESS;
        signal_event_locked(e);
        told++;
    }
    pthread_mutex_unlock(&event_lock);
    return told;
}
