/* egl_device.h - choosing an EGL device and making a headless OpenGL 4.3 core context on it.
 * The only part of gpuc that talks to EGL. */
#ifndef GPUC_EGL_DEVICE_H
#define GPUC_EGL_DEVICE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* Where GL's debug messages of a context go (egl_device_on_gl_messages): its type and text. */
typedef void egl_gl_message_fn(void *user, unsigned type, const char *message);

typedef struct egl_device {
    void *display; /* EGLDisplay */
    void *context; /* EGLContext */
    int index;     /* EGL device index, -1 for Mesa's surfaceless platform */
    bool software; /* the device says it is a software renderer */
    char how[128]; /* how it was reached, for gpuc_info.device */
    unsigned process; /* the process image it was opened in (see egl_device_inherited) */
    long opener_pid;  /* for messages */
    /* The context's GL debug callback carries this mark as its user parameter, so that GL itself
     * answers "is this context current on this thread?" (one TLS dispatch, no system call: an EGL call
     * costs a getpid in glvnd's libEGL, 0.16 us on llvmpipe's machine kind against 0.012 for the GL
     * query). NULL when the context could not be marked: then EGL is asked (egl_device.c). */
    void *mark;
    egl_gl_message_fn *on_gl_message;
    void *gl_message_user;
    /* The thread another of gpuc's contexts works on in this one's place (egl_device_hand_over), or
     * NULL: while it is another thread's, this context counts as held there, although EGL has it
     * current nowhere. */
    _Atomic(const void *) stood_in_on;
} egl_device;

typedef enum egl_choice_kind { EGL_CHOICE_AUTO, EGL_CHOICE_GPU, EGL_CHOICE_CPU, EGL_CHOICE_INDEX } egl_choice_kind;

typedef struct egl_choice {
    egl_choice_kind kind;
    int index;
} egl_choice;

/* Parses "auto", "gpu", "cpu", "llvmpipe" or a device index (NULL or "" mean auto).
 * Returns false for anything else. */
bool egl_choice_parse(const char *text, egl_choice *out);

/* The EGL indices of the hardware devices (at most max written), and how many there are. */
int egl_device_list_hardware(int *indices, int max);

/* Opens a display for `choice`, creates a 4.3 core context on it, makes it current, loads GL and
 * marks the context (struct egl_device's `mark`). On failure writes what was tried and what to
 * install into err and returns false. threads: gpuc_options.threads, for a software device (a display
 * of its own when not 0). */
bool egl_device_open(egl_choice choice, bool debug, int threads, egl_device *dev, char *err, size_t errlen);

/* Whether dev was opened in another process image: this process is a fork()ed child of the one that
 * opened it. Such a context must not be touched: Mesa's worker threads stayed in the parent, and any
 * GL or EGL call on it waits for them for ever. One atomic load, no system call. */
bool egl_device_inherited(const egl_device *dev);

/* Whether this process was fork()ed while the parent had an EGL display in use: Mesa's display state
 * came along without its threads, and a new context here would hang too (egl_device_open refuses). */
bool egl_device_forked_with_display(void);

/* GL's debug messages for dev's context go to fn(user, ...) from now on (NULL: nowhere). The caller
 * enables GL_DEBUG_OUTPUT itself; the callback is the device's, installed when the context is made. */
void egl_device_on_gl_messages(egl_device *dev, egl_gl_message_fn *fn, void *user);

/* Makes dev's context current on this thread if it is not already. Refused (false) while another
 * context stands in for dev on another thread (egl_device_hand_over): dev is held there. Making dev
 * current again on the thread it was handed over on ends the stand-in. */
bool egl_device_make_current(egl_device *dev);

/* After egl_device_make_current failed on this thread: whether it failed because the context is
 * held by another thread (current there, EGL_BAD_ACCESS, or stood in for there). Reads and clears
 * this thread's EGL error. */
bool egl_device_failed_as_held_elsewhere(void);

/* Makes `other` current on this thread in dev's place, dev current here (or already handed over
 * here): dev stays held by this thread, though EGL has it current nowhere, until this thread makes
 * it current again (or egl_device_stand_down); meanwhile egl_device_make_current and
 * egl_device_borrow of dev on any other thread refuse it. False (nothing changed but EGL's
 * binding, whatever it became) when `other` cannot be made current. */
bool egl_device_hand_over(egl_device *dev, egl_device *other);

/* Whether dev was handed over on this thread (egl_device_hand_over) and not taken back: whatever is
 * current here now. One atomic load. */
bool egl_device_handed_over_here(const egl_device *dev);

/* Ends a stand-in of this thread's (nothing if there is none, or it is another thread's). */
void egl_device_stand_down(egl_device *dev);

/* This thread's EGL binding before a borrow, so that it can be put back. */
typedef struct egl_binding {
    void *display, *context, *draw, *read;
    bool switched; /* the borrow changed the binding */
} egl_binding;

/* Makes dev's context current on this thread for a moment (to delete something in it), keeping
 * what was current in *saved. False when it cannot be made current here, or another thread holds it
 * through a stand-in (egl_device_hand_over); a stand-in of this thread's stays. */
bool egl_device_borrow(const egl_device *dev, egl_binding *saved);

/* Puts back the binding a successful egl_device_borrow replaced (nothing if it replaced nothing). */
void egl_device_give_back(const egl_binding *saved);

/* Whether dev's context is current on this thread. */
bool egl_device_is_current(const egl_device *dev);

/* Lets go of dev's context if it is current on this thread, so that another thread may take it. */
void egl_device_release(const egl_device *dev);

/* Destroys the context; terminates the display when no other gpuc context uses it. */
void egl_device_close(egl_device *dev);

#endif
