/* GIO's GDBus, for the desktop notification shim (CNotifyShim) only. */
#include <gio/gio.h>
