#ifndef PB_SIGNALS_H
#define PB_SIGNALS_H

/// Installs a SIGBUS handler that writes `message` (copied now; at most 1023 bytes) to standard
/// error and ends the process with `status`. A bus error comes from touching a page of a
/// memory-mapped file that has no backing any more: the file was truncated while mapped, or its
/// blocks could not be allocated because the disk is full. Returns 0, or -1 if sigaction failed.
int pbs_install_sigbus_handler(const char *message, int status);

#endif
