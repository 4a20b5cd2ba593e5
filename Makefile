# gpuc - GPU.js semantics in C, on headless OpenGL 4.3 compute.  `make help` lists the targets.

PREFIX  ?= /usr/local
CC      ?= cc
SANITIZE ?=
DEBUG   ?=

# The version is gpuc.h's GPUC_VERSION_* macros (one place to bump). The ABI's number in the soname
# (libgpuc.so.$(SOVERSION)) is major.minor before 1.0 and the major from 1.0 on: README.md, "ABI policy".
gpuc_version_part = $(shell sed -n 's/^\#define GPUC_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' include/gpuc.h)
VERSION_MAJOR := $(call gpuc_version_part,MAJOR)
VERSION_MINOR := $(call gpuc_version_part,MINOR)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(call gpuc_version_part,PATCH)
SOVERSION := $(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))
# Called SOMAJOR up to 0.1.0: a leftover use stops the build instead of naming a library "libgpuc.so.".
SOMAJOR = $(error SOMAJOR is now SOVERSION, the soname's number (README.md, "ABI policy"))

ifeq ($(SANITIZE),1)
BUILD   ?= build/sanitize
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD   ?= build
SANFLAGS :=
endif

ifeq ($(DEBUG),1)
# Debug builds check every GL call through KHR_debug in every context (gpuc_options.debug on by default).
OPTFLAGS := -O0 -g -DGPUC_DEBUG_BUILD
else
OPTFLAGS := -O2 -g
endif

WARNFLAGS := -Wall -Wextra -Werror -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS_ALL := -Iinclude -Isrc -Isrc/glad/include -D_POSIX_C_SOURCE=200809L
CFLAGS_ALL := -std=c11 $(WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) -fPIC -fvisibility=hidden $(CFLAGS)
LIBS := -lEGL -lpng -lm -lpthread

LIB_SRC := $(sort $(wildcard src/device/*.c src/kernel/*.c src/kernel/*/*.c src/algo/*.c src/algo/topk/*.c src/js/*.c src/js/runtime/*.c src/util/*.c))
GLAD_SRC := src/glad/src/gl.c
GLSL := $(sort $(wildcard glsl/*.glsl))
GEN_SRC := $(BUILD)/gen/glsl_sources.c
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/glad.o $(BUILD)/obj/glsl_sources.o

STATIC_LIB := $(BUILD)/libgpuc.a
SHARED_LIB := $(BUILD)/libgpuc.so.$(VERSION)

TEST_SRC := $(sort $(wildcard tests/*.c))
TEST_BIN := $(BUILD)/tests/gpuc-tests
EXAMPLE_SRC := $(sort $(wildcard examples/*.c))
EXAMPLE_COMMON := $(sort $(wildcard examples/common/*.c))
EXAMPLE_BIN := $(EXAMPLE_SRC:examples/%.c=$(BUILD)/examples/%)
CLI_SRC := $(sort $(wildcard tools/gpuc/*.c))
CLI_BIN := $(BUILD)/bin/gpuc

# The optional MPI library (src/mpi/, include/gpuc_mpi.h), its examples, test worker and benchmark:
# built where Open MPI's compiler wrapper is found (scripts/install-deps.sh installs it). The core
# library never links MPI.
MPICC   ?= mpicc
MPIRUN  ?= mpirun
HAVE_MPI := $(if $(shell command -v $(MPICC) 2>/dev/null),1,)
MPI_SRC := $(sort $(wildcard src/mpi/*.c))
MPI_OBJ := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
MPI_STATIC_LIB := $(BUILD)/libgpuc_mpi.a
MPI_SHARED_LIB := $(BUILD)/libgpuc_mpi.so.$(VERSION)
MPI_EXAMPLE_SRC := $(sort $(wildcard examples/mpi/*.c))
MPI_EXAMPLE_BIN := $(MPI_EXAMPLE_SRC:examples/mpi/%.c=$(BUILD)/examples/mpi-%)
MPI_WORKER_SRC := $(sort $(wildcard tests/mpi/*.c))
MPI_WORKER := $(BUILD)/tests/gpuc-mpi-worker
MPI_BENCH_SRC := $(sort $(wildcard tests/bench/mpi/*.c))
MPI_BENCH := $(BUILD)/bench/gpuc-bench-mpi


.PHONY: all lib mpi cli check check-hardware-profile check-zink check-mpi-hosts abi-check abi-baseline examples tutorials bench bench-zoo bench-mpi call-overhead soak fuzz install installcheck uninstall deps deps-check glad clean help
.DEFAULT_GOAL := all

all: lib cli

cli: $(CLI_BIN)

lib: $(STATIC_LIB) $(SHARED_LIB) $(if $(HAVE_MPI),mpi)

help:
	@echo "gpuc make targets:"
	@echo "  make                 build build/libgpuc.a, build/libgpuc.so and build/bin/gpuc (installs missing Debian packages as root)"
	@echo "  make check           first src/kernel/'s folder rule (scripts/check-kernel-rooms.sh: source/ and loops/ are GL-free)"
	@echo "                       and the GL-free unit tests of those readers (tests/unit/, build/tests/gpuc-unit, milliseconds);"
	@echo "                       then build and run the Check test suites on the default device, on both backends"
	@echo "                       (compute and fragment; GPUC_BACKEND=fragment make check runs one): a line per suite with"
	@echo "                       its time, then one for both (make check: PASSED: compute 43 suites, ...); CK_VERBOSITY=normal: Check's own"
	@echo "                       output. It includes examples/check (a Check suite of a user's kernel, gpuc_check.h), gpuc.h"
	@echo "                       built as C++11-20 (tests/cxx/), README.md's C/C++ blocks compiled (scripts/check-readme-code.sh)"
	@echo "                       and the paths and functions src/README.md names checked (scripts/check-doc-paths.sh);"
	@echo "                       CHECK_SUITES='kernels errors' runs only those suites (names in tests/suites.h);"
	@echo "                       the backends run side by side, the fragment backend's lines after the compute"
	@echo "                       backend's (CHECK_PARALLEL=0: one after the other, each line as it comes)"
	@echo "  make check SANITIZE=1  the same with ASan + UBSan (leak detection on), in build/sanitize/"
	@echo "  make check-hardware-profile  every suite that holds under GPUC_DEVICE_PROFILE=hardware on llvmpipe"
	@echo "  make check-mpi-hosts the MPI examples and calls across two network-namespace hosts over TCP (root; skipped otherwise)"
	@echo "                       (the GPU's code paths: storage-buffer reads, one cell per invocation; .ci/run runs it;"
	@echo "                       make check covers each choice once, in the device_profile suite)"
	@echo "  make abi-check       compare the libraries' public ABI with abi/*.abi (abidiff); fails on any change"
	@echo "  make abi-baseline    rewrite abi/*.abi after an announced ABI change (README.md, ABI policy)"
	@echo "  make check-zink      make check's suites on Mesa's zink over lavapipe (GL on Vulkan on the CPU), both backends"
	@echo "                       side by side in one make check where they leave out the same suites"
	@echo "                       (ZINK_BACKENDS=compute: one), but the open zink difference (README; ZINK_OPEN_compute=fork);"
	@echo "                       fails unless GL_RENDERER is zink's (scripts/check-zink.sh)"
	@echo "  make examples        build the example programs into build/examples/"
	@echo "  make cli             build the gpuc program into build/bin/gpuc (part of make; gpuc --help, man tools/gpuc/gpuc.1)"
	@echo "  make call-overhead   instructions per kernel call, gpuc against a bare GL dispatch (callgrind)"
	@echo "  make mpi             build build/libgpuc_mpi.a and .so (gpuc_mpi.h: the algorithms across MPI ranks; part of"
	@echo "                       make where Open MPI's mpicc is present, as are the mpi-* examples and the mpi suite)"
	@echo "  make bench-mpi       strong and weak scaling of the MPI calls over 1, 2 and 4 ranks beside the single-device calls"
	@echo "  make bench           the gauntlet rows (tests/bench/README.md) beside their C oracles and the small-calls row"
	@echo "                       (brain.js-style layers and their .pipeline chain, 1-16,384 cells, beside C and GPU.js in"
	@echo "                       node; cells and machine in build/bench/bench.json), then the scaling sweep 2^10..2^24 and its chart"
	@echo "                       (build/bench/scaling.png, gnuplot: installed as root); BENCH_ARGS='--row topk --json f.json' runs only that"
	@echo "  make bench-zoo       the kernel zoo (opt-in, not in make bench: 3-5 minutes): matmul, life, conv5, mandelbrot,"
	@echo "                       nbody in GLSL and pasted GPU.js JavaScript beside naive C and GPU.js in node (when node and"
	@echo "                       gpu.js are found: npm install --prefix /tmp/gpujs-zoo gpu.js@2.24.1 --ignore-scripts);"
	@echo "                       the same as make bench BENCH_ARGS='--row zoo'; BENCH_ARGS='--n 128 --no-gpujs' and so on."
	@echo "                       Beside naive C: OpenMP on every core (OMP_WAIT_POLICY=passive unless set) and OpenCL"
	@echo "                       (PoCL: an optional package; a note without it), gpuc timed in pairs against both;"
	@echo "                       make bench's topk count pass and compaction tables get the same two columns"
	@echo "  make soak            100,000 runs, 10,000 kernel creations, 1,000 contexts; fails if resident memory or"
	@echo "                       open descriptors grow after a warm-up (SOAK_SCALE=0.2: the short version CI runs)"
	@echo "  make tutorials       install missing packages (root), build the examples, run the three seed tutorials and check each printed line against its expected line (scripts/run-tutorials.sh)"
	@echo "  make install PREFIX=/usr/local   install headers (gpuc.h; gpuc_check.h: Check helpers, pkg-config gpuc-check),"
	@echo "                       libraries, gpuc.pc (pkg-config), the CMake package,"
	@echo "                       (lib/cmake/gpuc), bin/gpuc and its man page; runs ldconfig for /usr and /usr/local as root"
	@echo "  make installcheck    install into a scratch prefix, then build and run a pkg-config program, a Check suite and a"
	@echo "                       CMake project against it, as the README says"
	@echo "  make uninstall PREFIX=...        remove what install put there"
	@echo "  make deps            install the Debian packages the build and tests need (scripts/install-deps.sh)"
	@echo "  make glad            regenerate the committed GL 4.3 loader in src/glad/ (scripts/gen-glad.sh)"
	@echo "  make fuzz            build the libFuzzer targets (clang; JS front end, GLSL source readers, .npy and PNG readers, loop guard) and run each FUZZ_SECONDS (60)"
	@echo "  make clean           remove build/"
	@echo "  scripts/gpu-check.sh on a machine with an NVIDIA GPU: build, make check, make bench and make bench-zoo on the"
	@echo "                       GPU, one report (build/gpu-check/report.md) beside the published RTX 5090 figures"
	@echo "Variables: DEBUG=1 (-O0), SANITIZE=1, PREFIX, CC, CFLAGS, DEPS_CHECK=0 (install nothing);"
	@echo "           GPUC_DEVICE=auto|gpu|cpu|N picks the device,"
	@echo "           GPUC_BACKEND=compute|fragment the backend, GPUC_DEVICE_PROFILE=auto|software|hardware the"
	@echo "           programs' device profile (gpuc.h, gpuc_device_profile)."

# Before anything compiles, missing Debian packages are installed (as root; otherwise the exact
# apt-get line is printed and the build stops). The check is a few dpkg queries, run on every make;
# as an order-only prerequisite it never makes anything rebuild.
# DEPS_CHECK=0 builds with what is there, installing nothing (a machine without the network or dpkg:
# scripts/gpu-check.sh checks for what it needs itself).
deps-check:
	@[ "$(DEPS_CHECK)" = 0 ] || scripts/install-deps.sh --check 2>/dev/null || scripts/install-deps.sh

deps:
	scripts/install-deps.sh

glad:
	scripts/gen-glad.sh

$(GEN_SRC): $(GLSL) scripts/embed-glsl.sh | deps-check
	@mkdir -p $(dir $@)
	scripts/embed-glsl.sh $@ $(GLSL)

$(BUILD)/obj/%.o: %.c | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CPPFLAGS) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/obj/glad.o: $(GLAD_SRC) | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(CPPFLAGS) $(CFLAGS_ALL) -c $< -o $@

# A GLSL file longer than 4095 characters is one long string literal: fine for every C compiler we
# build with, but -Wpedantic warns about it (C's minimum limit), so that warning is off for this file.
$(BUILD)/obj/glsl_sources.o: $(GEN_SRC)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -Wno-overlength-strings -c $< -o $@

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libgpuc.so.$(SOVERSION) $(SANFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)
	ln -sf libgpuc.so.$(VERSION) $(BUILD)/libgpuc.so.$(SOVERSION)
	ln -sf libgpuc.so.$(VERSION) $(BUILD)/libgpuc.so

# Tests and examples link the static library and see only include/gpuc.h (tests/ adds its helpers).
# They initialise gpuc's zero-is-default structs partially ({n}, {"name", 1}), as the API intends; with
# -Wextra that needs -Wno-missing-field-initializers (see gpuc.h).
USER_WARNFLAGS = $(WARNFLAGS) -Wno-missing-field-initializers
CHECK_FLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

$(TEST_BIN): $(TEST_SRC) $(wildcard tests/*.h) examples/common/tutorial_data.c examples/common/tutorial_data.h $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -Itests -Iexamples/common -D_POSIX_C_SOURCE=200809L $(CHECK_FLAGS) -std=c11 $(USER_WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) \
		$(CFLAGS) -o $@ $(TEST_SRC) examples/common/tutorial_data.c $(STATIC_LIB) $(CHECK_LIBS) $(LIBS) -ldl $(LDFLAGS)

# src/kernel/'s GL-free rooms, the source readers and the loop readers: they include nothing of GL or
# internal.h (scripts/check-kernel-rooms.sh, run first by make check), so the unit tests (tests/unit/)
# and the fuzz targets link them and src/util/ alone. The unit build leaves glad's include directory
# out, so a GL header reached even indirectly stops it.
KERNEL_GL_FREE_SRC := $(sort $(wildcard src/kernel/source/*.c src/kernel/loops/*.c))
KERNEL_GL_FREE_H := $(wildcard src/kernel/source/*.h src/kernel/loops/*.h)
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_BIN := $(BUILD)/tests/gpuc-unit

$(UNIT_BIN): $(UNIT_SRC) $(wildcard tests/unit/*.h) $(KERNEL_GL_FREE_SRC) $(KERNEL_GL_FREE_H) src/util/strbuf.c src/util/strbuf.h
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -Isrc -Itests/unit -D_POSIX_C_SOURCE=200809L $(CHECK_FLAGS) -std=c11 $(USER_WARNFLAGS) $(OPTFLAGS) \
		$(SANFLAGS) $(CFLAGS) -o $@ $(UNIT_SRC) $(KERNEL_GL_FREE_SRC) src/util/strbuf.c $(CHECK_LIBS) -lm $(LDFLAGS)

$(BUILD)/examples/%: examples/%.c $(EXAMPLE_COMMON) $(wildcard examples/common/*.h) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -Iexamples/common -D_POSIX_C_SOURCE=200809L -std=c11 $(USER_WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) \
		$(CFLAGS) -o $@ $< $(EXAMPLE_COMMON) $(STATIC_LIB) $(LIBS) $(LDFLAGS)

examples: $(EXAMPLE_BIN) $(if $(HAVE_MPI),$(MPI_EXAMPLE_BIN))

# The Check kit (include/gpuc_check.h): examples/check/'s suite, built as a user would build it (all of
# $(WARNFLAGS), missing-field-initializers included), and gpuc.h with gpuc_check.h as C++11-20 under
# -Wall -Wextra -Werror -pedantic; make check's check_kit suite runs them all.
CXX_STDS := 11 14 17 20
CXX_BINS := $(CXX_STDS:%=$(BUILD)/tests/cxx/gpuc-c++%)
CHECK_EXAMPLE_BIN := $(BUILD)/examples/check/blur_test
$(CHECK_EXAMPLE_BIN): examples/check/blur_test.c include/gpuc_check.h $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -D_POSIX_C_SOURCE=200809L $(CHECK_FLAGS) -std=c11 $(WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) $(CFLAGS) \
		-o $@ $< $(STATIC_LIB) $(CHECK_LIBS) $(LIBS) $(LDFLAGS)
$(BUILD)/tests/cxx/gpuc-c++%: tests/cxx/cxx_kernel.cpp include/gpuc.h include/gpuc_check.h $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++$* -Iinclude $(CHECK_FLAGS) -Wall -Wextra -Werror -pedantic $(OPTFLAGS) $(SANFLAGS) $(CXXFLAGS) \
		-o $@ $< $(STATIC_LIB) $(CHECK_LIBS) $(LIBS) $(LDFLAGS)

# ---- the MPI library and its users (only where $(MPICC) exists) --------------------------------------
mpi: $(MPI_STATIC_LIB) $(MPI_SHARED_LIB)

$(BUILD)/obj/src/mpi/%.o: src/mpi/%.c | deps-check
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS_ALL) $(CPPFLAGS) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(MPI_STATIC_LIB): $(MPI_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(MPI_SHARED_LIB): $(MPI_OBJ) $(SHARED_LIB)
	$(MPICC) -shared -Wl,-soname,libgpuc_mpi.so.$(SOVERSION) $(SANFLAGS) -o $@ $(MPI_OBJ) -L$(BUILD) -lgpuc $(LIBS) $(LDFLAGS)
	ln -sf libgpuc_mpi.so.$(VERSION) $(BUILD)/libgpuc_mpi.so.$(SOVERSION)
	ln -sf libgpuc_mpi.so.$(VERSION) $(BUILD)/libgpuc_mpi.so

$(BUILD)/examples/mpi-%: examples/mpi/%.c $(wildcard examples/mpi/*.h) $(MPI_STATIC_LIB) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(MPICC) -Iinclude -Iexamples/mpi -D_POSIX_C_SOURCE=200809L -std=c11 $(USER_WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) \
		$(CFLAGS) -o $@ $< $(MPI_STATIC_LIB) $(STATIC_LIB) $(LIBS) $(LDFLAGS)

$(MPI_WORKER): $(MPI_WORKER_SRC) $(wildcard tests/mpi/*.h) $(MPI_STATIC_LIB) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(MPICC) -Iinclude -Itests/mpi -D_POSIX_C_SOURCE=200809L -std=c11 $(USER_WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) \
		$(CFLAGS) -o $@ $(MPI_WORKER_SRC) $(MPI_STATIC_LIB) $(STATIC_LIB) $(LIBS) $(LDFLAGS)

$(MPI_BENCH): $(MPI_BENCH_SRC) $(wildcard tests/bench/mpi/*.h) $(MPI_STATIC_LIB) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(MPICC) -Iinclude -Itests/bench/mpi -D_POSIX_C_SOURCE=200809L -std=c11 $(USER_WARNFLAGS) -O3 -g $(CFLAGS) \
		-o $@ $(MPI_BENCH_SRC) $(MPI_STATIC_LIB) $(STATIC_LIB) $(LIBS) $(LDFLAGS)

# How the tests and benchmarks start ranks: as root Open MPI wants --allow-run-as-root, and more ranks
# than cores need --oversubscribe; one llvmpipe thread per rank keeps the ranks off each other's cores.
# The benchmark adds --bind-to none: Open MPI binds up to two ranks to one core each by default, which
# leaves a single rank (the single-device baseline) one core for all of llvmpipe's threads.
MPIRUN_BASE_FLAGS := --oversubscribe $(if $(filter 0,$(shell id -u)),--allow-run-as-root)
# Test launches stay on loopback and never wait on name resolution: hwloc's GL component, which mpirun
# loads to list GPUs, asks X for display :0, whose fallback resolves "localhost"; with no /etc/hosts and
# a resolver that does not answer, that stalled every mpirun 5-50 s (HWLOC_COMPONENTS=-gl removes it;
# the interface flags alone do not). The ranks' own TCP (wire-up, any TCP transport) stays on lo.
MPIRUN_ENV := HWLOC_COMPONENTS=-gl
MPIRUN_LOOPBACK := --mca oob_tcp_if_include lo --mca btl_tcp_if_include lo
MPIRUN_FLAGS ?= $(MPIRUN_BASE_FLAGS) $(MPIRUN_LOOPBACK) -x LP_NUM_THREADS=1
BENCH_MPI_ARGS ?=

ifeq ($(HAVE_MPI),1)
bench-mpi: $(MPI_BENCH)
	$(MPIRUN_ENV) MPIRUN="$(MPIRUN) $(MPIRUN_BASE_FLAGS) $(MPIRUN_LOOPBACK) --bind-to none" $(MPI_BENCH) $(BENCH_MPI_ARGS)
else
bench-mpi:
	@echo "make bench-mpi needs Open MPI ($(MPICC) not found): run make deps (scripts/install-deps.sh)"; exit 2
endif

# The gpuc program (tools/gpuc/): a user of the public API like the examples, linked the same way.
$(CLI_BIN): $(CLI_SRC) $(wildcard tools/gpuc/*.h) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -D_POSIX_C_SOURCE=200809L -std=c11 $(USER_WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) \
		$(CFLAGS) -o $@ $(CLI_SRC) $(STATIC_LIB) $(LIBS) $(LDFLAGS)

BENCH_SRC := $(sort $(wildcard tests/bench/*.c))
BENCH_BIN := $(BUILD)/bench/gpuc-bench
BENCH_ARGS ?=
CALL_OVERHEAD_BIN := $(BUILD)/bench/gpuc-call-overhead

$(CALL_OVERHEAD_BIN): tests/bench/call_overhead/call_overhead.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -Isrc/glad/include -std=c11 $(USER_WARNFLAGS) -O2 -g $(CFLAGS) -o $@ $< $(STATIC_LIB) $(LIBS) $(LDFLAGS)

call-overhead: $(CALL_OVERHEAD_BIN)
	scripts/call-overhead.sh $(CALL_OVERHEAD_BIN)

# The zoo's CPU columns beside naive C: OpenMP where the compiler takes -fopenmp, and OpenCL (on PoCL, an
# optional package) where the OpenCL headers and loader are found; without either the column prints a note.
HAVE_OPENMP = $(shell echo 'int main(void){return 0;}' | $(CC) -fopenmp -x c - -o /dev/null 2>/dev/null && echo 1)
HAVE_OPENCL = $(shell printf '\043include <CL/cl.h>\nint main(void){return 0;}' | \
	$(CC) -x c - -o /dev/null -lOpenCL 2>/dev/null && echo 1)
BENCH_CPU_FLAGS = $(if $(HAVE_OPENMP),-fopenmp) $(if $(HAVE_OPENCL),-DBENCH_HAVE_OPENCL -DCL_TARGET_OPENCL_VERSION=120)
BENCH_CPU_LIBS = $(if $(HAVE_OPENCL),-lOpenCL)

$(BENCH_BIN): $(BENCH_SRC) $(wildcard tests/bench/*.h) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -Isrc/glad/include -D_POSIX_C_SOURCE=200809L -std=c11 $(USER_WARNFLAGS) -O3 -g $(SANFLAGS) $(CFLAGS) \
		$(BENCH_CPU_FLAGS) -o $@ $(BENCH_SRC) $(STATIC_LIB) $(LIBS) $(BENCH_CPU_LIBS) $(LDFLAGS)

# make bench: the gauntlet rows (every cell in build/bench/bench.json with the machine's description), then
# the scaling sweep and its chart (build/bench/scaling.png, cells in scaling.json). BENCH_ARGS replaces
# the rows' arguments and skips the sweep.
# The chart needs gnuplot, an optional package: installed here when missing and run as root (the build's
# deps-check asks only for the required ones); otherwise the sweep prints its table and says why no chart.
bench: $(BENCH_BIN)
	$(BENCH_BIN) $(if $(BENCH_ARGS),$(BENCH_ARGS),--json $(BUILD)/bench/bench.json)
	$(if $(BENCH_ARGS),,@command -v gnuplot >/dev/null 2>&1 || [ "$$(id -u)" -ne 0 ] || [ "$(DEPS_CHECK)" = 0 ] || scripts/install-deps.sh)
	$(if $(BENCH_ARGS),,$(BENCH_BIN) --scaling --chart $(BUILD)/bench/scaling.png --json $(BUILD)/bench/scaling.json)

# The kernel zoo row group (tests/bench/README.md), opt-in because it doubles make bench's time.
bench-zoo: $(BENCH_BIN)
	$(BENCH_BIN) --row zoo $(BENCH_ARGS)
tutorials:
	scripts/run-tutorials.sh

# The soak run watches the process's memory, so it is built without sanitizers (their quarantine and
# shadow memory grow by design). Mesa's on-disk shader cache is off: ten thousand throwaway programs
# would fill the user's cache, and its writer thread opens files at moments of its own, which the
# descriptor count would see (a fresh cache made the count flaky).
SOAK_SRC := $(sort $(wildcard tests/soak/*.c))
SOAK_BIN := $(BUILD)/soak/gpuc-soak
SOAK_SCALE ?= 1

$(SOAK_BIN): $(SOAK_SRC) $(wildcard tests/soak/*.h) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -D_POSIX_C_SOURCE=200809L -std=c11 $(USER_WARNFLAGS) $(OPTFLAGS) $(CFLAGS) \
		-o $@ $(SOAK_SRC) $(STATIC_LIB) $(LIBS) $(LDFLAGS)

ifeq ($(SANITIZE),1)
soak:
	@echo "make soak measures the process's memory: run it without SANITIZE=1"; exit 2
else
soak: $(SOAK_BIN)
	MESA_SHADER_CACHE_DISABLE=true $(SOAK_BIN) --scale $(SOAK_SCALE)
endif

# Sanitizer runs: leaks in gpuc are reported; Mesa's driver stays loaded (tests/fixture.c) so its own
# unload-time allocation does not count against us.
# The suites run once per backend: both by default, only the named one when GPUC_BACKEND is set.
CHECK_BACKENDS := $(if $(GPUC_BACKEND),$(GPUC_BACKEND),compute fragment)
# LeakSanitizer does not follow __tls_get_addr (intercept_tls_get_addr=0): on the fragment backend its
# record of the main thread's dynamic TLS goes stale (llvmpipe's rasterizer threads and Mesa's modules),
# and its exit-time scan then crashes ("Tracer caught signal 11"), failing a passing test. Without it,
# dynamic TLS is simply not a root: that could only add leak reports, never hide one.
# The hardware device profile (GPUC_DEVICE_PROFILE=hardware: storage-buffer reads, one cell per
# invocation, scalar stores, groups of 256) forced on whatever device this is, so that the GPU's code
# paths run, and cannot rot, on llvmpipe too (the loop budget and its guard follow the driver, not the
# profile): make check's device_profile suite opens each profile and checks every choice against C;
# check-hardware-profile (in .ci/run) runs every suite that holds there. Left out: the fragment,
# examples, cli and bench suites, which the backend legs cover.
HARDWARE_PROFILE_SUITES := device device_profile arrays kernels errors scatter topk sort compact js js_tutorial \
	js_features js_order kernel_map loops loop_proofs specialise jam program_cache hostile threads profile vec_arrays array_copy \
	png_input js_data js_messages vec_args dynamic_output array_constants graphical
CHECK_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 \
	GPUC_EXAMPLES_DIR=$(BUILD)/examples GPUC_CLI=$(CLI_BIN) GPUC_BENCH=$(BENCH_BIN)
# The mpi suite runs $(MPI_WORKER) and the MPI examples under mpirun where Open MPI is present
# (GPUC_MPIRUN empty: it says it was skipped). Every backend runs even when one fails; each run writes
# its totals to $(CHECK_TOTALS).<backend>, and the last line sums them up. CHECK_SUITES names suites
# to run instead of all.
# The backends run side by side, each a process of its own (CHECK_PARALLEL=0: one after the other): a
# run keeps about one core busy (Mesa's shader compiles, Check's fork per test, the tests' C oracles;
# llvmpipe's threads only in the few large dispatches), so on two cores both take little longer than
# one (the sanitizer build's run had taken 33-62 minutes one after the other). The first backend's lines
# stream as they come; the others' follow from $(BUILD)/tests/check-<backend>.log when it ends.
CHECK_TOTALS = $(BUILD)/tests/check-totals
# Each backend's failing tests (a line each), repeated after make check's line: so a log's tail, all
# that CI may show of it, names them, also those of the backend whose lines streamed first.
CHECK_FAILURES = $(BUILD)/tests/check-failures
CHECK_PARALLEL ?= 1
check: $(UNIT_BIN) $(TEST_BIN) $(EXAMPLE_BIN) $(CHECK_EXAMPLE_BIN) $(CXX_BINS) $(CLI_BIN) $(BENCH_BIN) $(if $(HAVE_MPI),$(MPI_EXAMPLE_BIN) $(MPI_WORKER))
	@scripts/check-kernel-rooms.sh && $(UNIT_BIN)
	@rm -f $(CHECK_TOTALS) $(CHECK_TOTALS).* $(CHECK_FAILURES).*; start=$$(date +%s); status=0; later=""; \
	run_backend() { \
		echo "==== backend $$1"; \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 GPUC_BACKEND=$$1 \
			GPUC_EXAMPLES_DIR=$(BUILD)/examples GPUC_CLI=$(CLI_BIN) GPUC_BENCH=$(BENCH_BIN) GPUC_CHECK_TOTALS=$(CHECK_TOTALS).$$1 \
			GPUC_CHECK_FAILURES=$(CHECK_FAILURES).$$1 \
			$(MPIRUN_ENV) GPUC_MPIRUN="$(if $(HAVE_MPI),$(MPIRUN) $(MPIRUN_FLAGS))" GPUC_MPI_WORKER=$(MPI_WORKER) $(TEST_BIN) $(CHECK_SUITES); \
	}; \
	first=$(firstword $(CHECK_BACKENDS)); \
	if [ "$(CHECK_PARALLEL)" != 0 ]; then \
		for backend in $(wordlist 2,$(words $(CHECK_BACKENDS)),$(CHECK_BACKENDS)); do \
			run_backend $$backend > $(BUILD)/tests/check-$$backend.log 2>&1 & later="$$later $$backend:$$!"; \
		done; \
		run_backend $$first || status=1; \
		for job in $$later; do \
			wait $${job#*:} || status=1; cat $(BUILD)/tests/check-$${job%%:*}.log; \
		done; \
	else \
		for backend in $(CHECK_BACKENDS); do run_backend $$backend || status=1; done; \
	fi; \
	for backend in $(CHECK_BACKENDS); do cat $(CHECK_TOTALS).$$backend 2>/dev/null; done > $(CHECK_TOTALS); \
	awk -v want=$(words $(CHECK_BACKENDS)) -v rc=$$status -v t=$$(( $$(date +%s) - start )) ' \
		{ runs = runs sep $$1 " " $$2 ($$2 == 1 ? " suite" : " suites"); sep = ", "; checks += $$3; fails += $$4; n++ } \
		END { ok = rc == 0 && n == want && fails == 0; \
			printf "make check: %s: %s%s, %d checks, %d failures, %dm%02ds\n", ok ? "PASSED" : "FAILED", \
				n ? runs : "no totals", n < want ? " (a run ended before its totals)" : "", checks, fails, t / 60, t % 60; \
			exit !ok }' $(CHECK_TOTALS); rc=$$?; \
	for backend in $(CHECK_BACKENDS); do cat $(CHECK_FAILURES).$$backend 2>/dev/null; done > $(CHECK_FAILURES); \
	if [ -s $(CHECK_FAILURES) ]; then echo "make check: the failing tests:"; cat $(CHECK_FAILURES); fi; \
	exit $$rc

# make check's suites on Mesa's zink over lavapipe (scripts/check-zink.sh checks that GL_RENDERER is
# zink's first); .ci/run runs it. CHECK_SUITES (empty: all) limits make check to some. Open zink
# differences (README.md, "A second driver: zink"), left out until fixed (make check runs them on
# llvmpipe): ZINK_OPEN_<backend>'s suites (ZINK_OPEN_compute= runs every suite). ZINK_BACKENDS=compute
# runs one backend.
ALL_SUITES = $(shell sed -n 's/^ *GPUC_SUITE(\([a-z0-9_]*\)).*/\1/p' tests/suites.h)
ZINK_BACKENDS ?= $(if $(GPUC_BACKEND),$(GPUC_BACKEND),compute fragment)
ZINK_OPEN_compute ?= fork
ZINK_OPEN_fragment ?= fork
# Where both backends run and leave out the same suites, one make check runs them side by side (as
# make check does); otherwise each backend is a make check of its own.
ZINK_SAME_OPEN = $(if $(filter-out $(ZINK_OPEN_compute),$(ZINK_OPEN_fragment))$(filter-out $(ZINK_OPEN_fragment),$(ZINK_OPEN_compute)),,1)
ZINK_TOGETHER = $(and $(filter compute,$(ZINK_BACKENDS)),$(filter fragment,$(ZINK_BACKENDS)),$(ZINK_SAME_OPEN))
check-zink: $(CLI_BIN)
ifneq ($(ZINK_TOGETHER),)
	scripts/check-zink.sh $(CLI_BIN) $(MAKE) --no-print-directory check GPUC_BACKEND= \
		CHECK_SUITES="$(filter-out $(ZINK_OPEN_compute),$(ALL_SUITES))"
else
	$(foreach b,$(ZINK_BACKENDS),scripts/check-zink.sh $(CLI_BIN) $(MAKE) --no-print-directory check GPUC_BACKEND=$(b) \
		CHECK_SUITES="$(filter-out $(ZINK_OPEN_$(b)),$(ALL_SUITES))" &&) true
endif

# The MPI layer across two hosts: network namespaces joined by veth, TCP only (scripts/check-mpi-hosts.sh;
# as root, skipped with a message elsewhere). In .ci/run.
ifeq ($(HAVE_MPI),1)
check-mpi-hosts: $(MPI_EXAMPLE_BIN) $(MPI_WORKER)
	$(MPIRUN_ENV) MPIRUN=$(MPIRUN) GPUC_MPIRUN="$(MPIRUN) $(MPIRUN_FLAGS)" GPUC_MPIRUN_HOSTS_FLAGS="$(MPIRUN_BASE_FLAGS) -x LP_NUM_THREADS=1" \
		GPUC_EXAMPLES_DIR=$(BUILD)/examples GPUC_MPI_WORKER=$(MPI_WORKER) scripts/check-mpi-hosts.sh
else
check-mpi-hosts:
	@echo "check-mpi-hosts: skipped: Open MPI ($(MPICC)) is not installed (make deps installs it)"
endif

check-hardware-profile: $(TEST_BIN) $(EXAMPLE_BIN) $(CLI_BIN) $(BENCH_BIN)
	$(CHECK_ENV) GPUC_BACKEND=compute GPUC_DEVICE_PROFILE=hardware $(TEST_BIN) $(HARDWARE_PROFILE_SUITES)

# The public ABI against the baselines in abi/ (scripts/abi-check.sh, libabigail's abidw and abidiff):
# abi-check fails on any change to what include/*.h declares and the libraries export; after an
# announced change (README.md, "ABI policy": the version bumped as it says), abi-baseline rewrites abi/.
ABI_PAIRS = $(SHARED_LIB) abi/libgpuc.abi $(if $(HAVE_MPI),$(MPI_SHARED_LIB) abi/libgpuc_mpi.abi)
abi-check: lib
	scripts/abi-check.sh $(ABI_PAIRS)

abi-baseline: lib
	scripts/abi-check.sh --write $(ABI_PAIRS)

# What install writes besides the header and libraries: gpuc.pc for pkg-config and the CMake package
# (gpucConfig.cmake, gpucConfigVersion.cmake), both filled in from templates in scripts/ by sed.
# A program linked against a prefix the dynamic linker does not search still has to find libgpuc.so when
# it runs: there gpuc.pc's Libs carry -Wl,-rpath,${libdir} (CMake adds that rpath by itself). For a
# system prefix (Debian searches /usr/lib, and /usr/local/lib through /etc/ld.so.conf.d/libc.conf) no
# rpath is written; instead install runs ldconfig, as root and when not staging into a DESTDIR, so that
# the new library is in ld.so's cache at once.
comma := ,
SYSTEM_PREFIXES := /usr /usr/local
SYSTEM_PREFIX = $(filter $(SYSTEM_PREFIXES),$(patsubst %/,%,$(PREFIX)))
PC_RPATH = $(if $(SYSTEM_PREFIX),,-Wl$(comma)-rpath$(comma)$${libdir})
RUN_LDCONFIG = $(if $(DESTDIR),,$(if $(SYSTEM_PREFIX),$(filter 0,$(shell id -u))))
# The CMake version file refuses a project built for another pointer size, as CMake's own do.
SIZEOF_VOID_P = $(shell echo __SIZEOF_POINTER__ | $(CC) -E -P - | tr -d ' ')
CMAKE_DIR = $(DESTDIR)$(PREFIX)/lib/cmake/gpuc
FILL_IN = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e 's|@SOVERSION@|$(SOVERSION)|g' \
	-e 's|@MAJOR@|$(VERSION_MAJOR)|g' -e 's|@RPATH@|$(PC_RPATH)|g' -e 's|@SIZEOF_VOID_P@|$(SIZEOF_VOID_P)|g' \
	-e 's|@BITS@|$(shell expr 8 \* $(SIZEOF_VOID_P))|g'

install: lib cli
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(CMAKE_DIR) $(DESTDIR)$(PREFIX)/bin \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(CLI_BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 tools/gpuc/gpuc.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 include/gpuc.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libgpuc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libgpuc.so.$(SOVERSION)
	ln -sf libgpuc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libgpuc.so
	$(FILL_IN) scripts/gpuc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gpuc.pc
	install -m 644 include/gpuc_check.h $(DESTDIR)$(PREFIX)/include/
	$(FILL_IN) scripts/gpuc-check.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gpuc-check.pc
	$(FILL_IN) scripts/gpucConfig.cmake.in > $(CMAKE_DIR)/gpucConfig.cmake
	$(FILL_IN) scripts/gpucConfigVersion.cmake.in > $(CMAKE_DIR)/gpucConfigVersion.cmake
ifeq ($(HAVE_MPI),1)
	install -m 644 include/gpuc_mpi.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(MPI_STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(MPI_SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libgpuc_mpi.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libgpuc_mpi.so.$(SOVERSION)
	ln -sf libgpuc_mpi.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libgpuc_mpi.so
	$(FILL_IN) scripts/gpuc-mpi.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gpuc-mpi.pc
endif
	$(if $(RUN_LDCONFIG),ldconfig)

installcheck: lib
	scripts/test-install.sh

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/include/gpuc.h $(DESTDIR)$(PREFIX)/lib/libgpuc.a \
		$(DESTDIR)$(PREFIX)/include/gpuc_check.h $(DESTDIR)$(PREFIX)/lib/pkgconfig/gpuc-check.pc \
		$(DESTDIR)$(PREFIX)/lib/libgpuc.so* $(DESTDIR)$(PREFIX)/lib/pkgconfig/gpuc.pc \
		$(DESTDIR)$(PREFIX)/include/gpuc_mpi.h $(DESTDIR)$(PREFIX)/lib/libgpuc_mpi.a \
		$(DESTDIR)$(PREFIX)/lib/libgpuc_mpi.so* $(DESTDIR)$(PREFIX)/lib/pkgconfig/gpuc-mpi.pc \
		$(CMAKE_DIR)/gpucConfig.cmake $(CMAKE_DIR)/gpucConfigVersion.cmake \
		$(DESTDIR)$(PREFIX)/bin/gpuc $(DESTDIR)$(PREFIX)/share/man/man1/gpuc.1
	rmdir $(CMAKE_DIR) 2>/dev/null || true
	$(if $(RUN_LDCONFIG),ldconfig)

# libFuzzer over the source readers, no GL in any: the JavaScript front end (parser, checker, GLSL
# writer), the GLSL kernel's readers (mask, signature scan, accessor rewrite, kernel map wrapping,
# call finders, loop budget), and the readers of files from outside (.npy, PNG). `make fuzz` runs each for FUZZ_SECONDS. The corpus directories in
# tests/fuzz keep seeds and the inputs that found bugs; new finds go to build/fuzz/.
FUZZ_SECONDS ?= 60
FUZZ_CC := clang -std=c11 $(WARNFLAGS) -Wno-missing-field-initializers -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -Iinclude -Isrc -Isrc/glad/include -D_POSIX_C_SOURCE=200809L
FUZZ_RUN = -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=2048
# The JavaScript fuzzer links the source readers too: native_errors.c quotes a native function's line with source_line.
FUZZ_SRC := tests/fuzz/fuzz_js.c $(filter-out src/js/api.c,$(wildcard src/js/*.c src/js/runtime/*.c)) $(wildcard src/kernel/source/*.c) src/util/strbuf.c
FUZZ_BIN := build/fuzz/fuzz_js
FUZZ_GLSL_SRC := tests/fuzz/fuzz_glsl.c $(KERNEL_GL_FREE_SRC) src/util/strbuf.c
FUZZ_GLSL_BIN := build/fuzz/fuzz_glsl
# The readers of files from outside: the gpuc program's .npy reader and the PNG decoder.
FUZZ_NPY_SRC := tests/fuzz/fuzz_npy.c tools/gpuc/npy.c tools/gpuc/npy_header.c
FUZZ_NPY_BIN := build/fuzz/fuzz_npy
FUZZ_PNG_SRC := tests/fuzz/fuzz_png.c src/device/png_decode.c
FUZZ_PNG_BIN := build/fuzz/fuzz_png
# The loop guard's promise (tests/fuzz/fuzz_loops.c): generated kernels that write their loop's counter
# are never proven, by the reader alone (fuzz_loop_reader, no GL) and in runs that must agree with a
# context guarding every loop (fuzz_loops: links the library and opens two contexts, so it is slower).
FUZZ_READER_SRC := $(KERNEL_GL_FREE_SRC) src/util/strbuf.c
FUZZ_LOOP_READER_BIN := build/fuzz/fuzz_loop_reader
FUZZ_LOOPS_BIN := build/fuzz/fuzz_loops
FUZZ_LOOPS_SECONDS ?= $(FUZZ_SECONDS)

$(FUZZ_BIN): $(FUZZ_SRC) $(wildcard src/js/*.h src/js/runtime/*.h)
	@mkdir -p $(dir $@) build/fuzz/corpus
	$(FUZZ_CC) -o $@ $(FUZZ_SRC) -lm

$(FUZZ_GLSL_BIN): $(FUZZ_GLSL_SRC) $(KERNEL_GL_FREE_H) src/util/strbuf.h
	@mkdir -p $(dir $@) build/fuzz/corpus_glsl
	$(FUZZ_CC) -o $@ $(FUZZ_GLSL_SRC) -lm

$(FUZZ_NPY_BIN): $(FUZZ_NPY_SRC) $(wildcard tools/gpuc/npy*.h)
	@mkdir -p $(dir $@) build/fuzz/corpus_npy
	$(FUZZ_CC) -Itools/gpuc -o $@ $(FUZZ_NPY_SRC)

$(FUZZ_PNG_BIN): $(FUZZ_PNG_SRC) src/device/png_decode.h
	@mkdir -p $(dir $@) build/fuzz/corpus_png
	$(FUZZ_CC) -o $@ $(FUZZ_PNG_SRC) -lpng

$(FUZZ_LOOP_READER_BIN): tests/fuzz/fuzz_loops.c $(FUZZ_READER_SRC) $(KERNEL_GL_FREE_H)
	@mkdir -p $(dir $@) build/fuzz/corpus_loops
	$(FUZZ_CC) -o $@ tests/fuzz/fuzz_loops.c $(FUZZ_READER_SRC) -lm

# The library as built (no sanitizer inside Mesa); the generator is what the fuzzer steers.
$(FUZZ_LOOPS_BIN): tests/fuzz/fuzz_loops.c $(STATIC_LIB) $(KERNEL_GL_FREE_H)
	@mkdir -p $(dir $@) build/fuzz/corpus_loops
	clang -std=c11 $(WARNFLAGS) -Wno-missing-field-initializers -g -O1 -fsanitize=fuzzer -DFUZZ_LOOPS_GL \
		-Iinclude -Isrc -Isrc/glad/include -D_POSIX_C_SOURCE=200809L -o $@ tests/fuzz/fuzz_loops.c $(STATIC_LIB) $(LIBS)

# First every kept input once at its full length (fuzzing cuts inputs to -max_len, and the deep-nesting
# crashers are longer), then the fuzzing itself.
fuzz: $(FUZZ_BIN) $(FUZZ_GLSL_BIN) $(FUZZ_NPY_BIN) $(FUZZ_PNG_BIN) $(FUZZ_LOOP_READER_BIN) $(FUZZ_LOOPS_BIN)
	$(FUZZ_BIN) -timeout=10 tests/fuzz/corpus/*
	$(FUZZ_GLSL_BIN) -timeout=10 tests/fuzz/corpus_glsl/*
	$(FUZZ_NPY_BIN) -timeout=10 tests/fuzz/corpus_npy/* 2>/dev/null
	$(FUZZ_PNG_BIN) -timeout=10 tests/fuzz/corpus_png/*
	$(FUZZ_LOOP_READER_BIN) -timeout=10 tests/fuzz/corpus_loops/*
	$(FUZZ_LOOPS_BIN) -timeout=60 tests/fuzz/corpus_loops/*
	$(FUZZ_BIN) $(FUZZ_RUN) build/fuzz/corpus tests/fuzz/corpus
	$(FUZZ_GLSL_BIN) $(FUZZ_RUN) -dict=tests/fuzz/glsl.dict build/fuzz/corpus_glsl tests/fuzz/corpus_glsl
	$(FUZZ_NPY_BIN) $(FUZZ_RUN) -dict=tests/fuzz/npy.dict build/fuzz/corpus_npy tests/fuzz/corpus_npy
	$(FUZZ_PNG_BIN) $(FUZZ_RUN) -dict=tests/fuzz/png.dict build/fuzz/corpus_png tests/fuzz/corpus_png
	$(FUZZ_LOOP_READER_BIN) $(FUZZ_RUN) build/fuzz/corpus_loops tests/fuzz/corpus_loops
	$(FUZZ_LOOPS_BIN) -max_total_time=$(FUZZ_LOOPS_SECONDS) -max_len=64 -timeout=60 -rss_limit_mb=4096 \
		build/fuzz/corpus_loops tests/fuzz/corpus_loops

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(MPI_OBJ:.o=.d)
