// A bus error handler for the filters. A SIGBUS means a mapped file (the vector file, SQLite's
// -shm, the model) lost the page we touched; the default action is a core dump that tells the
// user nothing. Only async-signal-safe calls here: write(2) and _exit(2).
#include "pb_signals.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static char sigbus_message[1024];
static size_t sigbus_length;
static int sigbus_status = 74;

static void on_sigbus(int signo) {
    (void)signo;
    size_t done = 0;
    while (done < sigbus_length) {
        ssize_t n = write(2, sigbus_message + done, sigbus_length - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    _exit(sigbus_status);
}

int pbs_install_sigbus_handler(const char *message, int status) {
    size_t length = strlen(message);
    if (length > sizeof sigbus_message - 1) length = sizeof sigbus_message - 1;
    memcpy(sigbus_message, message, length);
    sigbus_message[length] = 0;
    sigbus_length = length;
    sigbus_status = status;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigbus;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGBUS, &action, NULL);
}
