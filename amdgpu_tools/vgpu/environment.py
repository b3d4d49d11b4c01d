"""The variables through which ``amdgpu-run`` (launcher.py) configures the
driver (driver.py) inside the program it launches: the contract between the
two sides of the process boundary, light enough to import anywhere
(native/thunk.c reads PYTHON and PYTHONPATH by these names too)."""

MCPU = "AMDGPU_VGPU_MCPU"                           # the processor and its target-id features
LIBRARY = "AMDGPU_VGPU_LIBRARY"                     # the thunk the program loaded
PYTHON = "AMDGPU_VGPU_PYTHON"                       # the interpreter the thunk starts as
PYTHONPATH = "AMDGPU_VGPU_PYTHONPATH"               # the launcher's sys.path
MAX_INSTRUCTIONS = "AMDGPU_VGPU_MAX_INSTRUCTIONS"   # watchdog, per dispatch
TIMEOUT = "AMDGPU_VGPU_TIMEOUT"                     # watchdog, seconds per dispatch
TRACE = "AMDGPU_VGPU_TRACE"                         # --trace
PROFILE = "AMDGPU_VGPU_PROFILE"                     # --profile
CHECK = "AMDGPU_VGPU_CHECK"                         # --check: hazards of every kernel
DEBUG = "AMDGPU_VGPU_DEBUG"                         # tracebacks of driver errors
ERROR_EXIT = "AMDGPU_VGPU_ERROR_EXIT"               # idle seconds after a fatal error
