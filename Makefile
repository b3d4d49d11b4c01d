# make setup: install the project (editable) with its test dependencies, and build the
#             virtual GPU's libhsakmt.so.1 where gcc and libhsakmt-dev are installed
# make run:   assemble, link and run the hello-world sample, printing its result
# make test:  install and run the test suite
# make bench: install and run the benchmarks
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip

.PHONY: setup run test bench

setup:
	$(PIP) install -q -e '.[test]'
	$(PYTHON) -m amdgpu_tools.vgpu.build --if-possible

run: setup
	amdgpu-as --mcpu=gfx803 samples/hello_world.s -o /tmp/amdgpu-tools-hello.o
	amdgpu-ld -shared /tmp/amdgpu-tools-hello.o -o /tmp/amdgpu-tools-hello.hsaco
	amdgpu-run /tmp/amdgpu-tools-hello.hsaco --kernel hello_world --grid 64 --block 64 --arg 'buf:float32[4]'

test: setup
	$(PYTHON) -m pytest -q

bench: setup
	$(PYTHON) -m bench
