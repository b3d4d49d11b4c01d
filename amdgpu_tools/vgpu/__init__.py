"""The virtual GPU: a user-space KFD thunk (libhsakmt) backed by the emulator."""
