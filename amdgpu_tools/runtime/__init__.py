"""The HSA-style runtime: device memory, signals, AQL queues, the packet
processor, the loader and the Python APIs.

Modules, one job each:

- ``memory``      the device's sparse 64-bit address space
- ``layouts``     byte layouts of amd_signal_t, amd_queue_t and the AQL packets
- ``signals``     signals (amd_signal_t) and waiting on them
- ``queues``      AQL queues (amd_queue_t + ring + doorbell), error state
- ``packets``     writing AQL packets as a producer must (header last)
- ``processor``   the packet processor: packets -> executor DispatchRequests
- ``codeobject``  the loading policy over the ELF layer's reader and metadata
- ``descriptors`` amd_kernel_code_t / kernel descriptor -> KernelSetup
- ``loader``      mapping, relocation, kernels and their properties
- ``kernargs``    the kernarg segment, hidden arguments included
- ``printf``      the OpenCL printf buffer, formatted on the host
- ``hsa``         the low-level API: Agent, regions, signals, queues, load
- ``api``         the high-level API: Device, Buffer, Program, Kernel, LocalMemory
- ``spec``        ``amdgpu-run`` argument strings and launch-spec files
"""
