# make setup: install the project (editable) with its test dependencies into a project-local
#             virtual environment (.venv, reused when present), and build the virtual GPU's
#             libhsakmt.so.1 where gcc and libhsakmt-dev are installed
# make run:   assemble, link and run the hello-world sample, printing its result
# make test:  install and run the test suite (all but the tests marked long)
# make test-long: the tests marked long (minutes each: e.g. rocRAND's XORWOW on the virtual GPU)
# make bench: install and run the benchmarks
# make fuzz:  install and run the fuzzers at full size, the hazard checker on every
#             deleted-wait mutant of clang's e2e kernels while they run, and the executor and
#             e2e tests with every block compiled and checked against the interpreter, and
#             the e2e tests with every dispatch that may use workers run in 2 of them
#             (not part of make test)
#
# The virtual environment makes a system Python marked externally managed (PEP 668:
# Debian, Ubuntu) work as well as any other Python 3.10+; it sees the interpreter's
# own packages (--system-site-packages), so nothing already installed is downloaded
# again. PYTHON picks the interpreter that creates it; VENV its place.
PYTHON ?= python3
VENV ?= .venv
VPYTHON := $(VENV)/bin/python
VBIN := $(VENV)/bin

.PHONY: setup run test test-long bench fuzz

$(VPYTHON):
	@$(PYTHON) -m venv --system-site-packages $(VENV) >/dev/null 2>&1 || { \
	  rm -rf $(VENV); \
	  echo "make: $(PYTHON) cannot create a virtual environment: install its venv module (Debian/Ubuntu: apt install python3-venv, or python$$($(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)-venv)" >&2; \
	  exit 1; }

setup: $(VPYTHON)
	$(VPYTHON) -m pip install -q -e '.[test,compiled]'
	$(VPYTHON) -m amdgpu_tools.vgpu.build --if-possible

run: setup
	$(VBIN)/amdgpu-as --mcpu=gfx803 samples/hello_world.s -o /tmp/amdgpu-tools-hello.o
	$(VBIN)/amdgpu-ld -shared /tmp/amdgpu-tools-hello.o -o /tmp/amdgpu-tools-hello.hsaco
	$(VBIN)/amdgpu-run /tmp/amdgpu-tools-hello.hsaco --kernel hello_world --grid 64 --block 64 --arg 'buf:float32[4]'

test: setup
	$(VPYTHON) -m pytest -q -m "not long"

test-long: setup
	$(VPYTHON) -m pytest -q -m long

bench: setup
	$(VPYTHON) -m bench

fuzz: setup
	$(VPYTHON) -m tools.fuzz
	for config in clang-19:gfx900:-O2:5 clang-19:gfx803:-O2:4 clang-19:gfx700:-O2:5 \
	              clang-14:gfx803:-O2:2; do \
	  $(VPYTHON) -m tools.dynamic_mutants $$config || exit 1; done
	AMDGPU_TOOLS_COMPILE=check $(VPYTHON) -m pytest -q -m "not long" tests/exec tests/e2e
	AMDGPU_TOOLS_TEST_WORKERS=2 $(VPYTHON) -m pytest -q -m "not long" tests/e2e
